import type { LearnerSnapshot } from '../learners/learner.js';
import type { AssessmentSnapshot } from '../training/assessment.js';
import type { EnrolmentSnapshot } from '../training/enrolment.js';
import type { ProgrammeSnapshot } from '../training/programme.js';
import { CRLF, fixed, yyyymmdd } from './fixed-width.js';
import { FindingList, dedupe, qcto01Record } from './qcto01.js';
import type { ReadinessFinding } from './readiness.js';
import type { RegulatorSettings } from './regulator-settings.js';

/** QCTO02 record length (domain reference, QCTO02 layout). */
export const QCTO02_LENGTH = 213;

/** Module achievement status: 01 enrolled (no result), 02 competent, 03 not yet competent, 04 withdrawn. */
export function moduleStatus(
  enrolment: Pick<EnrolmentSnapshot, 'status'>,
  results: readonly AssessmentSnapshot[],
): { status: '01' | '02' | '03' | '04'; achieved: AssessmentSnapshot | null; latest: AssessmentSnapshot | null } {
  const ordered = [...results].sort((a, b) =>
    a.assessmentDate === b.assessmentDate
      ? a.createdAt.localeCompare(b.createdAt)
      : a.assessmentDate.localeCompare(b.assessmentDate),
  );
  // A module once achieved stays achieved, also when the enrolment is withdrawn later.
  const achieved = ordered.find((a) => a.outcome === 'C') ?? null;
  const latest = ordered.at(-1) ?? null;
  if (achieved) return { status: '02', achieved, latest };
  if (enrolment.status === 'withdrawn') return { status: '04', achieved: null, latest };
  return { status: latest ? '03' : '01', achieved: null, latest };
}

/** QCTO02 Employment Status from the learner's socio-economic status, else the provider's default. */
function employmentStatus(l: LearnerSnapshot, s: RegulatorSettings, f: FindingList): string {
  const ses = l.socioeconomicStatusCode;
  if (ses === '01') return '01';
  if (ses && ses !== 'U') return '02';
  return f.setting(s, 'employmentStatusDefault');
}

export interface Qcto02Input {
  learner: LearnerSnapshot;
  enrolment: EnrolmentSnapshot;
  programme: ProgrammeSnapshot;
  /** Every result of the enrolment (any module, any type). */
  assessments: readonly AssessmentSnapshot[];
}

/**
 * The QCTO02 records of one enrolment, one per module of its programme (docs/api.md, "Regulator files"), each
 * with its CRLF; or the findings that keep the learner's rows out. A learner QCTO01 cannot carry is left out
 * here too (its rows would name a learner the regulator does not have), with the QCTO01 findings. A file is
 * written per learner with `qcto02LearnerRecords`: a finding on one enrolment leaves out the others too.
 * `learnerFindings`: the learner's QCTO01 findings, when the caller has already worked them out.
 */
export function qcto02Records(
  x: Qcto02Input,
  s: RegulatorSettings,
  dateStamp: string,
  learnerFindings: readonly ReadinessFinding[] = qcto01Record(x.learner, s, dateStamp).findings,
): { records: string[]; findings: ReadinessFinding[] } {
  const r = enrolmentRecords(x, s, dateStamp, learnerFindings.length === 0);
  if (r.findings.length || learnerFindings.length)
    return { records: [], findings: dedupe([...learnerFindings, ...r.findings]) };
  return { records: r.records, findings: [] };
}

/**
 * One enrolment's findings (in the order they are met) and, when `wanted` and there is no finding, its records.
 * A record is written only when nothing keeps the learner out, so with a finding met before the modules (or
 * without `wanted`) the modules are only checked for the one finding they can add, the achievement type's.
 */
function enrolmentRecords(
  x: Qcto02Input,
  s: RegulatorSettings,
  dateStamp: string,
  wanted: boolean,
): { records: string[]; findings: ReadinessFinding[] } {
  const { learner: l, enrolment: e, programme: p } = x;
  const f = new FindingList(l);
  const partner = f.setting(s, 'assessmentPartnerCode');
  const sdp = f.setting(s, 'sdpCode');
  const centre = f.setting(s, 'assessmentCentreCode');
  const readiness = f.setting(s, 'readinessTypeId');
  const entry = f.setting(s, 'entryRequirementStatus');
  const flc = f.setting(s, 'flcStatus');
  const sor = f.setting(s, 'statementOfResultsStatus');
  // Named in the message: a learner may have several enrolments, and only one may lack the field.
  const qualification = p.qualificationId ?? '';
  if (!qualification) f.add('programme.qualificationId', 'missing', `programme ${p.code} has no qualificationId`);
  const expected = e.expectedEndDate ?? '';
  if (!expected) f.add('enrolment.expectedEndDate', 'missing', `enrolment ${e.id} (${p.code}) has no expectedEndDate`);
  if (!l.idNumber && !l.alternateId) f.add('idNumber', 'missing', 'an ID number or an alternative ID is required');
  const employment = employmentStatus(l, s, f);
  const achievementType = s.achievementTypeId;
  const records: string[] = [];
  if (!wanted || f.items.length) {
    if (!achievementType)
      for (const m of p.modules) {
        const { status, achieved, latest } = moduleStatus(e, resultsOf(x.assessments, m.code));
        if ((achieved ?? latest) && status !== '04') {
          f.setting(s, 'achievementTypeId');
          break;
        }
      }
    return { records, findings: f.items };
  }
  // The fields before the module's and after its achievement date are the enrolment's, the same for every module.
  const head =
    fixed(partner, 20) +
    fixed(sdp, 20) +
    fixed(centre, 20) +
    fixed(l.idNumber, 15) +
    fixed(l.alternateId, 20) +
    fixed(qualification, 20) +
    fixed(readiness, 3);
  const tail =
    fixed(yyyymmdd(e.startDate), 8) +
    fixed(yyyymmdd(expected), 8) +
    fixed(l.employer ? 'Y' : 'N', 2) +
    fixed(entry, 3) +
    fixed(flc, 3) +
    fixed('', 15) +
    fixed(sor, 3) +
    fixed('', 8) +
    fixed(yyyymmdd(dateStamp), 8) +
    CRLF;
  const employed = fixed(employment, 3);
  for (const m of p.modules) {
    const { status, achieved, latest } = moduleStatus(e, resultsOf(x.assessments, m.code));
    const result = achieved ?? latest;
    if (result && status !== '04' && !achievementType) f.setting(s, 'achievementTypeId');
    const record =
      head +
      fixed(m.code, 20) +
      fixed(status, 3) +
      employed +
      fixed(result && status !== '04' ? achievementType : '', 3) +
      fixed(achieved ? yyyymmdd(achieved.assessmentDate) : '', 8) +
      tail;
    if (record.length !== QCTO02_LENGTH + CRLF.length)
      throw new Error(`QCTO02 record of ${record.length - 2} characters`);
    records.push(record);
  }
  return { records: f.items.length ? [] : records, findings: f.items };
}

/** The results of one module among an enrolment's. */
function resultsOf(assessments: readonly AssessmentSnapshot[], moduleCode: string): AssessmentSnapshot[] {
  const out: AssessmentSnapshot[] = [];
  for (const a of assessments) if (a.moduleCode === moduleCode) out.push(a);
  return out;
}

/** Whether `list` holds a finding of this field and reason (and message, when given). */
function holds(list: readonly ReadinessFinding[], i: ReadinessFinding, message?: string): boolean {
  for (const g of list)
    if (g.field === i.field && g.reason === i.reason && (message === undefined || g.message === message)) return true;
  return false;
}

/**
 * The QCTO02 records of one learner over the selected enrolments (each with its programme and results): all of
 * them, or none with the findings of every enrolment (docs/api.md, "Regulator files"). A learner missing a
 * mandatory field is left out, so an enrolment without a finding does not write records for a learner another
 * enrolment leaves out; the report then counts the learner once, as left out, and no record of theirs.
 * The findings are those of `qcto02Records` per enrolment, each kept once (same field, reason and message):
 * the learner's QCTO01 findings first, then each enrolment's own not among them, in order.
 */
export function qcto02LearnerRecords(
  enrolments: readonly Qcto02Input[],
  s: RegulatorSettings,
  dateStamp: string,
): { records: string[]; findings: ReadinessFinding[] } {
  if (!enrolments.length) return { records: [], findings: [] };
  // The QCTO01 findings are the learner's, the same for every enrolment: worked out once (most of a count's time).
  const learnerFindings = qcto01Record(enrolments[0]!.learner, s, dateStamp).findings;
  const records: string[] = [];
  // Once a finding is met the learner is left out, so no later enrolment's records are laid out.
  const findings: ReadinessFinding[] = [...learnerFindings];
  for (const x of enrolments) {
    const r = enrolmentRecords(x, s, dateStamp, findings.length === 0);
    if (!r.findings.length) {
      records.push(...r.records);
      continue;
    }
    // As `qcto02Records` answers them: one per field and reason, the learner's first; then each kept once over
    // the enrolments (the learner's findings are the same for every enrolment).
    const own: ReadinessFinding[] = [];
    for (const i of r.findings)
      if (!holds(learnerFindings, i) && !holds(own, i)) {
        own.push(i);
        if (!holds(findings, i, i.message)) findings.push(i);
      }
  }
  return findings.length ? { records: [], findings } : { records, findings: [] };
}
