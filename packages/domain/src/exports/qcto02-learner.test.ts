import { describe, expect, it } from 'vitest';
import {
  GOLDEN_ASSESSMENTS,
  GOLDEN_DATE,
  GOLDEN_ENROLMENTS,
  GOLDEN_LEARNERS,
  GOLDEN_PROGRAMME,
  GOLDEN_SETTINGS,
} from '../testing/golden-data.js';
import type { AssessmentSnapshot } from '../training/assessment.js';
import type { ProgrammeSnapshot } from '../training/programme.js';
import { fixed, yyyymmdd } from './fixed-width.js';
import { dedupe, qcto01Record } from './qcto01.js';
import { moduleStatus, qcto02LearnerRecords, qcto02Records, type Qcto02Input } from './qcto02.js';
import type { ReadinessFinding } from './readiness.js';
import { emptyRegulatorSettings, type RegulatorSettings } from './regulator-settings.js';

/**
 * The QCTO02 records and findings worked out the plain way, as the file's rules say them: every enrolment's
 * records laid out whole, every finding kept as met and then each (field, reason) once per enrolment, and once
 * per (field, reason, message) over the learner. `qcto02Records` and `qcto02LearnerRecords` skip the records of a
 * learner already left out and keep findings without key strings; they must answer exactly this.
 */
function plainRecords(x: Qcto02Input, s: RegulatorSettings, on: string, learnerFindings: readonly ReadinessFinding[]) {
  const { learner: l, enrolment: e, programme: p } = x;
  const items: ReadinessFinding[] = [];
  const add = (field: string, reason: ReadinessFinding['reason'], message: string) =>
    items.push({ learnerId: l.id, idNumber: l.idNumber, alternateId: l.alternateId, field, reason, message });
  const setting = (name: keyof RegulatorSettings) => {
    if (s[name] === null) add(`settings.${name}`, 'missing_setting', `the regulator setting ${name} is not set`);
    return s[name] ?? '';
  };
  const [partner, sdp, centre, readiness, entry, flc, sor] = (
    [
      'assessmentPartnerCode',
      'sdpCode',
      'assessmentCentreCode',
      'readinessTypeId',
      'entryRequirementStatus',
      'flcStatus',
      'statementOfResultsStatus',
    ] as const
  ).map(setting);
  if (!p.qualificationId) add('programme.qualificationId', 'missing', `programme ${p.code} has no qualificationId`);
  if (!e.expectedEndDate)
    add('enrolment.expectedEndDate', 'missing', `enrolment ${e.id} (${p.code}) has no expectedEndDate`);
  if (!l.idNumber && !l.alternateId) add('idNumber', 'missing', 'an ID number or an alternative ID is required');
  const ses = l.socioeconomicStatusCode;
  const employment = ses === '01' ? '01' : ses && ses !== 'U' ? '02' : setting('employmentStatusDefault');
  const records = p.modules.map((m) => {
    const { status, achieved, latest } = moduleStatus(
      e,
      x.assessments.filter((a) => a.moduleCode === m.code),
    );
    const result = achieved ?? latest;
    if (result && status !== '04' && !s.achievementTypeId) setting('achievementTypeId');
    const fields: [string | null, number][] = [
      [partner!, 20],
      [sdp!, 20],
      [centre!, 20],
      [l.idNumber, 15],
      [l.alternateId, 20],
      [p.qualificationId, 20],
      [readiness!, 3],
      [m.code, 20],
      [status, 3],
      [employment, 3],
      [result && status !== '04' ? s.achievementTypeId : '', 3],
      [achieved ? yyyymmdd(achieved.assessmentDate) : '', 8],
      [yyyymmdd(e.startDate), 8],
      [yyyymmdd(e.expectedEndDate), 8],
      [l.employer ? 'Y' : 'N', 2],
      [entry!, 3],
      [flc!, 3],
      ['', 15],
      [sor!, 3],
      ['', 8],
      [yyyymmdd(on), 8],
    ];
    return `${fields.map(([v, n]) => fixed(v, n)).join('')}\r\n`;
  });
  if (items.length || learnerFindings.length) return { records: [], findings: dedupe([...learnerFindings, ...items]) };
  return { records, findings: [] };
}

function plainLearnerRecords(xs: readonly Qcto02Input[], s: RegulatorSettings, on: string) {
  const learnerFindings = xs.length ? qcto01Record(xs[0]!.learner, s, on).findings : [];
  const all = xs.map((x) => plainRecords(x, s, on, learnerFindings));
  const findings = all.flatMap((r) => r.findings);
  if (!findings.length) return { records: all.flatMap((r) => r.records), findings: [] };
  const keys = findings.map((i) => JSON.stringify([i.field, i.reason, i.message]));
  return { records: [], findings: findings.filter((_, k) => keys.indexOf(keys[k]!) === k) };
}

const TWO: ProgrammeSnapshot = {
  ...GOLDEN_PROGRAMME,
  id: 'prg_two',
  code: 'P-TWO',
  qualificationId: null,
  modules: GOLDEN_PROGRAMME.modules.slice(0, 2),
};

const THREE: ProgrammeSnapshot = { ...TWO, id: 'prg_three', code: 'P-THREE' };

const SETTINGS: RegulatorSettings[] = [
  GOLDEN_SETTINGS,
  emptyRegulatorSettings(),
  { ...GOLDEN_SETTINGS, achievementTypeId: null },
  { ...GOLDEN_SETTINGS, employmentStatusDefault: null, sdpCode: null },
];

/** Each golden learner with one, two or three enrolments: complete, without an expected end, withdrawn, none. */
function learnerCases(): Qcto02Input[][] {
  return GOLDEN_LEARNERS.flatMap((learner, i) => {
    const e = GOLDEN_ENROLMENTS[i]!;
    const results = GOLDEN_ASSESSMENTS.filter((a) => a.enrolmentId === e.id);
    const golden: Qcto02Input = { learner, enrolment: e, programme: GOLDEN_PROGRAMME, assessments: results };
    const again = (o: Partial<typeof e>, programme = GOLDEN_PROGRAMME, assessments: AssessmentSnapshot[] = []) => ({
      learner,
      enrolment: { ...e, id: `${e.id}_${programme.code}_${o.status ?? 'x'}`, ...o },
      programme,
      assessments,
    });
    const second = again({ programmeId: TWO.id, programmeCode: TWO.code }, TWO, results);
    const noEnd = again({ expectedEndDate: null });
    const withdrawn = again({ status: 'withdrawn' }, GOLDEN_PROGRAMME, results);
    // The same field and reason in two enrolments, told apart by the message (the enrolment or the programme).
    const noEndEither = again({ expectedEndDate: null, status: 'enrolled' });
    const third = again({ programmeId: THREE.id, programmeCode: THREE.code }, THREE, results);
    return [
      [],
      [golden],
      [golden, noEnd],
      [noEnd, golden],
      [golden, second, withdrawn],
      [withdrawn, golden],
      [noEnd, noEndEither, second, third],
    ];
  });
}

describe('QCTO02 records of a learner', () => {
  it('are the plain working out, records and findings, for every case and setting', () => {
    let ready = 0;
    let leftOut = 0;
    for (const s of SETTINGS)
      for (const xs of learnerCases()) {
        const r = qcto02LearnerRecords(xs, s, GOLDEN_DATE);
        expect(r).toEqual(plainLearnerRecords(xs, s, GOLDEN_DATE));
        if (r.records.length) ready++;
        if (r.findings.length) leftOut++;
        for (const x of xs) {
          const own = qcto01Record(x.learner, s, GOLDEN_DATE).findings;
          expect(qcto02Records(x, s, GOLDEN_DATE)).toEqual(plainRecords(x, s, GOLDEN_DATE, own));
          expect(qcto02Records(x, s, GOLDEN_DATE, [])).toEqual(plainRecords(x, s, GOLDEN_DATE, []));
        }
      }
    // Both outcomes are exercised: learners written whole and learners left out.
    expect(ready).toBeGreaterThan(5);
    expect(leftOut).toBeGreaterThan(5);
  });
});
