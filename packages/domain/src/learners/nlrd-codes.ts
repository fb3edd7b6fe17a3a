import { DomainError } from '../common/errors.js';

/** NLRD / QCTO code tables. Keys are the codes as they appear in the regulator's learner files. */
export const NLRD_CODES = {
  title: ['Mr', 'Mrs', 'Ms', 'Miss', 'Dr', 'Prof'],
  equityCode: ['BA', 'BC', 'BI', 'Wh', 'Oth', 'U'],
  nationalityCode: [
    'SA',
    'SDC',
    'ANG',
    'BOT',
    'LES',
    'MAL',
    'MAU',
    'MOZ',
    'NAM',
    'SEY',
    'SWA',
    'TAN',
    'ZAI',
    'ZAM',
    'ZIM',
    'ROA',
    'EUR',
    'AIS',
    'NOR',
    'SOU',
    'AUS',
    'OOC',
    'U',
    'NOT',
  ],
  homeLanguageCode: ['Eng', 'Afr', 'Nde', 'Xho', 'Zul', 'Sep', 'Ses', 'Set', 'Swa', 'Tsh', 'Xit', 'SASL', 'Oth', 'U'],
  citizenResidentStatusCode: ['SA', 'D', 'O', 'PR', 'U'],
  socioeconomicStatusCode: ['01', '02', '03', '04', '06', '07', '08', '09', '10', '97', '98', 'U'],
  disabilityStatusCode: ['N', '01', '02', '03', '04', '05', '06', '07', '09'],
  disabilityRating: ['01', '02', '03', '04', '06', '60', '70', '80'],
  immigrantStatus: ['01', '02', '03'],
  provinceCode: ['1', '2', '3', '4', '5', '6', '7', '8', '9', 'N', 'X'],
} as const;

export type NlrdField = keyof typeof NLRD_CODES;
export type NlrdCode<F extends NlrdField> = (typeof NLRD_CODES)[F][number];

export function parseNlrdCode<F extends NlrdField>(field: F, value: unknown): NlrdCode<F> {
  const allowed = NLRD_CODES[field] as readonly string[];
  if (typeof value !== 'string' || !allowed.includes(value)) {
    throw DomainError.invalid(field, `must be one of ${allowed.join(', ')}`, 'invalid_code');
  }
  return value as NlrdCode<F>;
}
