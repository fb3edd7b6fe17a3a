import { DomainError, type ErrorDetail } from '../common/errors.js';

/**
 * A provider's constants for the regulator files (docs/api.md, "Regulator files"). Every field may be unset
 * (`null`): a file that needs an unset one reports it as a readiness finding instead of failing.
 */
export interface RegulatorSettings {
  /** The provider's QCTO accreditation number (QCTO01 and QCTO02 "SDP Code"; the file name). */
  sdpCode: string | null;
  /** The assessment quality partner's QCTO accreditation number (QCTO02). */
  assessmentPartnerCode: string | null;
  /** The assessment centre's accreditation number (QCTO02). */
  assessmentCentreCode: string | null;
  /** QCTO02 "Learner Readiness for EISA Type Id": 1 to 5. */
  readinessTypeId: string | null;
  /** QCTO02 "Employment Status" when the learner's socio-economic status does not say: 01, 02 or 03. */
  employmentStatusDefault: string | null;
  /** QCTO02 "Learner Modular Achievement Type ID" of recorded results: 01 formative or 02 RPL. */
  achievementTypeId: string | null;
  /** QCTO02 "Qualification entry requirement status": 01 to 04. */
  entryRequirementStatus: string | null;
  /** QCTO02 "FLC" (foundational learning competence): 01 to 08. */
  flcStatus: string | null;
  /** QCTO02 "Statement of Results status": 01 issued, 02 not yet issued. */
  statementOfResultsStatus: string | null;
}

/** Allowed values of the coded settings; `null` for free text (an accreditation number of at most 20). */
export const REGULATOR_SETTING_CODES: Record<keyof RegulatorSettings, readonly string[] | null> = {
  sdpCode: null,
  assessmentPartnerCode: null,
  assessmentCentreCode: null,
  readinessTypeId: ['1', '2', '3', '4', '5'],
  employmentStatusDefault: ['01', '02', '03'],
  achievementTypeId: ['01', '02'],
  entryRequirementStatus: ['01', '02', '03', '04'],
  flcStatus: ['01', '02', '03', '04', '05', '06', '07', '08'],
  statementOfResultsStatus: ['01', '02'],
};

export const REGULATOR_SETTING_FIELDS = Object.keys(REGULATOR_SETTING_CODES) as (keyof RegulatorSettings)[];

export function emptyRegulatorSettings(): RegulatorSettings {
  return {
    sdpCode: null,
    assessmentPartnerCode: null,
    assessmentCentreCode: null,
    readinessTypeId: null,
    employmentStatusDefault: null,
    achievementTypeId: null,
    entryRequirementStatus: null,
    flcStatus: null,
    statementOfResultsStatus: null,
  };
}

/** Checks a whole settings object (PUT replaces all); absent fields are unset. Collects every failing field. */
export function parseRegulatorSettings(input: Record<string, unknown>): RegulatorSettings {
  const out = emptyRegulatorSettings();
  const errors: ErrorDetail[] = [];
  for (const f of REGULATOR_SETTING_FIELDS) {
    const v = input[f];
    if (v === undefined || v === null) continue;
    const allowed = REGULATOR_SETTING_CODES[f];
    if (typeof v !== 'string' || v.trim() === '') errors.push({ field: f, message: 'must be a non-empty string' });
    else if (allowed && !allowed.includes(v))
      errors.push({ field: f, message: `must be one of ${allowed.join(', ')}` });
    else if (!allowed && !/^[A-Za-z0-9][A-Za-z0-9 ./-]{0,19}$/.test(v.trim()))
      errors.push({ field: f, message: 'must be at most 20 letters, digits, spaces, . / or -, starting with one' });
    else out[f] = allowed ? v : v.trim();
  }
  if (errors.length) throw DomainError.invalidMany(errors);
  return out;
}
