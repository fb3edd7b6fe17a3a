import { DomainError } from '../common/errors.js';

export const ENROLMENT_STATUSES = ['enrolled', 'in_progress', 'suspended', 'completed', 'withdrawn'] as const;
export type EnrolmentStatus = (typeof ENROLMENT_STATUSES)[number];
export const OPEN_STATUSES: readonly EnrolmentStatus[] = ['enrolled', 'in_progress', 'suspended'];

/** The enrolment moves (docs/api.md, "Enrolments"); `completed` and `withdrawn` are final. */
export const ENROLMENT_MOVES: Record<EnrolmentStatus, readonly EnrolmentStatus[]> = {
  enrolled: ['in_progress', 'withdrawn'],
  in_progress: ['suspended', 'completed', 'withdrawn'],
  suspended: ['in_progress', 'withdrawn'],
  completed: [],
  withdrawn: [],
};

export function parseEnrolmentStatus(value: unknown, field = 'status'): EnrolmentStatus {
  if (typeof value !== 'string' || !(ENROLMENT_STATUSES as readonly string[]).includes(value)) {
    throw DomainError.invalid(field, `must be one of ${ENROLMENT_STATUSES.join(', ')}`);
  }
  return value as EnrolmentStatus;
}
