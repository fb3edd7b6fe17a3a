import type { ChangeEnrolmentStatus } from '../enrolments/change-enrolment-status.js';
import type { EnrolLearner } from '../enrolments/enrol-learner.js';
import type { RegisterLearner } from '../learners/register-learner.js';
import type { UpdateLearner } from '../learners/update-learner.js';

/** An inbound HR call (docs/api.md, "HR sync"): its body and the use cases it drives (its answer: `HrEventAnswer`). */
export interface HrEventBody {
  id?: string;
  event: string;
  timestamp?: string;
  data: Record<string, unknown>;
}

export interface InboundCall {
  /** Form B's slug; null under Form A, where the key names the tenant. */
  tenantSlug: string | null;
  headers: Record<string, string | string[] | undefined>;
  body: HrEventBody;
  /** The caller's address, recorded as the origin of the audit entries the event writes. */
  ip?: string | null;
}

/** The learner and enrolment use cases an inbound event drives (the same ones the API uses). */
export interface InboundUseCases {
  registerLearner: RegisterLearner;
  updateLearner: UpdateLearner;
  enrolLearner: EnrolLearner;
  changeEnrolmentStatus: ChangeEnrolmentStatus;
}
