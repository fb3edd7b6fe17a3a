import type { EnrolmentView } from '@fundi/application/training';
import type { Html } from '../dashboard/html.js';

/** What an enrolment's page hands each of its sections. */
export interface EnrolmentRecordAt {
  enrolment: EnrolmentView;
  /**
   * A read shared by the sections of one view of the page, made once under its key (the evidence listed is also
   * what the history covers).
   */
  once<T>(key: string, load: () => Promise<T>): Promise<T>;
}

declare module '../dashboard/dashboard-deps.js' {
  interface PageSlots {
    /**
     * An enrolment's page below its modules and assessments (docs/dashboard.md, "Shared pages"): its evidence, its
     * Statements of Results, its history.
     */
    enrolmentRecord: { at: EnrolmentRecordAt; shows: Html };
    /** The records that belong to an enrolment, whose changes its history shows beside its own: their ids. */
    enrolmentRecordIds: { at: EnrolmentRecordAt; shows: readonly string[] };
  }
}
