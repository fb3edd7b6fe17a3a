import type { Clock } from '@fundi/domain';

export class SystemClock implements Clock {
  now(): Date {
    return new Date();
  }
}
