import { describe, expect, it } from 'vitest';
import { emptyRegulatorSettings, parseRegulatorSettings } from './regulator-settings.js';
import {
  GOLDEN_ASSESSMENTS,
  GOLDEN_DATE,
  GOLDEN_ENROLMENTS,
  GOLDEN_LEARNERS,
  GOLDEN_PROGRAMME,
  GOLDEN_SETTINGS,
} from '../testing/golden-data.js';
import { qcto01Record } from './qcto01.js';
import { qcto02Records } from './qcto02.js';
import type { DomainError } from '../common/errors.js';

const sipho = GOLDEN_LEARNERS[0]!;
const reasons = (r: { findings: { field: string; reason: string }[] }) =>
  r.findings.map((f) => `${f.field} ${f.reason}`);

describe('QCTO readiness', () => {
  it('an unset setting is a finding (missing_setting), never a crash', () => {
    expect(reasons(qcto01Record(sipho, emptyRegulatorSettings(), GOLDEN_DATE))).toEqual([
      'settings.sdpCode missing_setting',
    ]);
    const e = GOLDEN_ENROLMENTS[0]!;
    const r = qcto02Records(
      { learner: sipho, enrolment: e, programme: GOLDEN_PROGRAMME, assessments: GOLDEN_ASSESSMENTS },
      emptyRegulatorSettings(),
      GOLDEN_DATE,
    );
    expect(r.records).toEqual([]);
    expect(reasons(r)).toEqual(
      expect.arrayContaining([
        'settings.sdpCode missing_setting',
        'settings.assessmentPartnerCode missing_setting',
        'settings.assessmentCentreCode missing_setting',
        'settings.readinessTypeId missing_setting',
        'settings.entryRequirementStatus missing_setting',
        'settings.flcStatus missing_setting',
        'settings.statementOfResultsStatus missing_setting',
        'settings.achievementTypeId missing_setting',
      ]),
    );
  });

  it('QCTO02 needs the qualification id and the expected completion date', () => {
    const r = qcto02Records(
      {
        learner: sipho,
        enrolment: { ...GOLDEN_ENROLMENTS[0]!, expectedEndDate: null },
        programme: { ...GOLDEN_PROGRAMME, qualificationId: null },
        assessments: [],
      },
      GOLDEN_SETTINGS,
      GOLDEN_DATE,
    );
    expect(reasons(r)).toEqual(['programme.qualificationId missing', 'enrolment.expectedEndDate missing']);
  });

  it('reports every reason with the learner and its identifier', () => {
    const [finding] = qcto01Record({ ...sipho, gender: 'F' }, GOLDEN_SETTINGS, GOLDEN_DATE).findings;
    expect(finding).toMatchObject({
      learnerId: sipho.id,
      idNumber: '9001049818080',
      alternateId: null,
      field: 'gender',
      reason: 'gender_mismatch',
    });
    expect(reasons(qcto01Record({ ...sipho, lastName: 'Dlamini!' }, GOLDEN_SETTINGS, GOLDEN_DATE))).toEqual([
      'lastName invalid_characters',
    ]);
    expect(reasons(qcto01Record({ ...sipho, homeLanguageCode: 'U' }, GOLDEN_SETTINGS, GOLDEN_DATE))).toEqual([
      'homeLanguageCode invalid_code',
    ]);
    expect(
      reasons(
        qcto01Record({ ...sipho, disabilityStatusCode: '02', disabilityRating: null }, GOLDEN_SETTINGS, GOLDEN_DATE),
      ),
    ).toEqual(['disabilityRating required_with_disability']);
    expect(reasons(qcto01Record({ ...sipho, statssaAreaCode: null }, GOLDEN_SETTINGS, GOLDEN_DATE))).toEqual([
      'statssaAreaCode missing',
    ]);
  });

  it('truncates long values to the field length', () => {
    const r = qcto01Record({ ...sipho, lastName: 'A'.repeat(40) }, GOLDEN_SETTINGS, GOLDEN_DATE);
    expect(r.record?.slice(116, 142)).toBe('A'.repeat(26));
    expect(r.record).toHaveLength(673);
  });

  it('settings: codes checked, free text at most 20, every failing field named', () => {
    expect(parseRegulatorSettings({ sdpCode: ' SDP1 ', flcStatus: '06' })).toMatchObject({
      sdpCode: 'SDP1',
      flcStatus: '06',
      readinessTypeId: null,
    });
    try {
      parseRegulatorSettings({ sdpCode: 'X'.repeat(21), readinessTypeId: '9', employmentStatusDefault: 1 });
      throw new Error('expected invalid');
    } catch (e) {
      expect((e as DomainError).details.map((d) => d.field)).toEqual([
        'sdpCode',
        'readinessTypeId',
        'employmentStatusDefault',
      ]);
    }
  });
});
