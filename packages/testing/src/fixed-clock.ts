import type { Clock } from '@fundi/domain';

/** A clock that stands still until a test moves it. */
export class FixedClock implements Clock {
  constructor(private current: Date = new Date('2026-06-01T08:00:00.000Z')) {}
  now(): Date {
    return new Date(this.current.getTime());
  }
  set(d: Date | string): void {
    this.current = new Date(d);
  }
  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}
