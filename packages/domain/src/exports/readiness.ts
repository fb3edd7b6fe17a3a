/**
 * Why a learner cannot go into a regulator file (docs/api.md, "Regulator files"):
 * - `missing`: a mandatory field is empty;
 * - `missing_setting`: a provider setting the file needs is unset (`field` is `settings.<name>`);
 * - `invalid_code`: the value is not in the code table the file allows;
 * - `invalid_characters`: the text has characters the layout does not allow;
 * - `gender_mismatch`: the gender does not agree with the ID number (QCTO discards such an upload);
 * - `required_with_disability`: a disability rating is needed because a disability is recorded.
 */
export type ReadinessReason =
  | 'missing'
  | 'missing_setting'
  | 'invalid_code'
  | 'invalid_characters'
  | 'gender_mismatch'
  | 'required_with_disability';

export interface ReadinessFinding {
  learnerId: string;
  /** The learner's SA ID number, or `null` for a learner with an alternative ID. */
  idNumber: string | null;
  alternateId: string | null;
  field: string;
  reason: ReadinessReason;
  message: string;
}

export interface ReadinessReport {
  /** Learners that would be (or were) written: those with records in the file. */
  ready: number;
  /** Learners left out because of at least one finding: none of their records is in the file. */
  leftOut: number;
  /** Records written (QCTO02: one per learner per module of each selected enrolment). */
  records: number;
  /** The first findings (at most 10,000, so a record stays small); `omittedFindings` counts the rest. */
  findings: ReadinessFinding[];
  omittedFindings: number;
}
