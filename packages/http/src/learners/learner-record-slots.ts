import type { LearnerView } from '@fundi/application/learners';
import type { EnrolmentView } from '@fundi/application/training';
import type { Html } from '../dashboard/html.js';

/** What the learner's record hands each of its sections. */
export interface LearnerRecordAt {
  learner: LearnerView;
  /**
   * The learner's enrolments (the first 100), read once for every section that needs them while the others load;
   * null without `enrolments:read`.
   */
  enrolments: Promise<readonly EnrolmentView[] | null>;
  /** Today (UTC): the date its forms start from. */
  today: string;
}

declare module '../dashboard/dashboard-deps.js' {
  interface PageSlots {
    /**
     * The learner's record below their profile (docs/dashboard.md, "Shared pages"): each section one part of it
     * (the enrolments, the evidence, the notifications sent to them...).
     */
    learnerRecord: { at: LearnerRecordAt; shows: Html };
    /** What the learner's record says after a section's form succeeded: the message of its key (`?done=`). */
    learnerRecordDone: { at: { done: string }; shows: string };
  }
}
