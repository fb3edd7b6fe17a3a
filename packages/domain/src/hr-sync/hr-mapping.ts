import { DomainError, type ErrorDetail } from '../common/errors.js';
import { PROFILE_FIELDS } from '../learners/learner-fields.js';

/** HR field name -> learner field path (`learner.<field>`). */
export type FieldMapping = Record<string, string>;

/** The specification's mapping, used until a tenant sets its own. */
export const DEFAULT_FIELD_MAPPING: FieldMapping = {
  employeeId: 'learner.employeeRef',
  firstName: 'learner.firstName',
  lastName: 'learner.lastName',
  saIdNumber: 'learner.idNumber',
  email: 'learner.email',
  department: 'learner.department',
  jobTitle: 'learner.jobTitle',
};

/** Every learner field HR may fill. */
export const MAPPABLE_LEARNER_FIELDS: readonly string[] = ['firstName', 'lastName', 'idNumber', ...PROFILE_FIELDS];
/** An employee's identity: a mapping must fill these (the specification's required inbound mapping). */
export const REQUIRED_TARGETS = ['employeeRef', 'firstName', 'lastName', 'idNumber'] as const;
/**
 * The specification's optional HR fields (its example event carries them): one that a tenant's mapping leaves out is
 * ignored, not refused, so an HR system sending the specification's shape works with any mapping.
 */
export const OPTIONAL_SPEC_HR_FIELDS: readonly string[] = Object.entries(DEFAULT_FIELD_MAPPING)
  .filter(([, target]) => !(REQUIRED_TARGETS as readonly string[]).includes(target.slice('learner.'.length)))
  .map(([hr]) => hr);
/** Fields of the event's `data` that are not learner fields. */
export const RESERVED_HR_FIELDS = ['programmeCode', 'startDate', 'reason', 'terminationDate'] as const;

const HR_FIELD = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/;
/** Names that reach an object's prototype: never an HR field. */
const PROTOTYPE_NAMES: readonly string[] = ['__proto__', 'constructor', 'prototype'];

/**
 * Checks a mapping: HR field names are identifiers, each target is `learner.<a learner field>` named once, the
 * identity fields are all mapped, and no HR field shadows one of the reserved event fields.
 */
export function parseFieldMapping(value: unknown, field = 'fieldMapping'): FieldMapping {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw DomainError.invalid(field, 'must be an object of HR field name -> learner field path');
  const errors: ErrorDetail[] = [];
  const out: FieldMapping = {};
  const seen = new Map<string, string>();
  for (const [hr, target] of Object.entries(value)) {
    const at = `${field}.${hr}`;
    if (!HR_FIELD.test(hr) || (RESERVED_HR_FIELDS as readonly string[]).includes(hr) || PROTOTYPE_NAMES.includes(hr)) {
      errors.push({ field: at, message: 'is not a usable HR field name' });
      continue;
    }
    const learnerField = typeof target === 'string' && target.startsWith('learner.') ? target.slice(8) : null;
    if (!learnerField || !MAPPABLE_LEARNER_FIELDS.includes(learnerField)) {
      errors.push({ field: at, message: `unknown target ${JSON.stringify(target)}; use learner.<field>` });
      continue;
    }
    if (seen.has(learnerField)) {
      errors.push({ field: at, message: `${target} is already mapped from ${seen.get(learnerField)}` });
      continue;
    }
    seen.set(learnerField, hr);
    out[hr] = target as string;
  }
  for (const t of REQUIRED_TARGETS)
    if (!errors.length && !seen.has(t)) errors.push({ field, message: `must map a field to learner.${t}` });
  if (errors.length) throw DomainError.invalidMany(errors);
  return out;
}

/** The HR field that fills `learnerField`, or the learner field itself when none does. */
export function hrFieldFor(mapping: FieldMapping, learnerField: string): string {
  for (const [hr, target] of Object.entries(mapping)) if (target === `learner.${learnerField}`) return hr;
  return learnerField;
}

/**
 * Splits an event's `data` into learner input (through the mapping) and the reserved fields `allowed` for the
 * event. One of the specification's optional fields that the mapping leaves out is ignored; any other field neither
 * mapped nor allowed is invalid input naming it.
 */
export function applyMapping(
  mapping: FieldMapping,
  data: Record<string, unknown>,
  allowed: readonly string[],
): { learner: Record<string, unknown>; extra: Record<string, unknown> } {
  const learner: Record<string, unknown> = {};
  const extra: Record<string, unknown> = {};
  const errors: ErrorDetail[] = [];
  for (const [hr, v] of Object.entries(data)) {
    // Own keys only: `constructor` must not find Object.prototype's.
    const target = Object.hasOwn(mapping, hr) ? mapping[hr] : undefined;
    if (target) learner[target.slice(8)] = v;
    else if (allowed.includes(hr)) extra[hr] = v;
    else if (!OPTIONAL_SPEC_HR_FIELDS.includes(hr)) errors.push({ field: hr, message: 'is not a mapped HR field' });
  }
  if (errors.length) throw DomainError.invalidMany(errors);
  return { learner, extra };
}

/** The same error with learner field names replaced by the HR fields that carry them. */
export function inHrTerms(e: DomainError, mapping: FieldMapping): DomainError {
  const rename = (f: string) => {
    const [head, ...rest] = f.split('.');
    const learnerField = head === 'saIdNumber' ? 'idNumber' : head!;
    const hr = MAPPABLE_LEARNER_FIELDS.includes(learnerField) ? hrFieldFor(mapping, learnerField) : head!;
    return [hr, ...rest].join('.');
  };
  const details = e.details.map((d) => ({ field: rename(d.field), message: d.message }));
  const first = details[0];
  const message = first && e.kind === 'invalid' ? `${first.field}: ${first.message}` : e.message;
  return new DomainError(e.kind, e.code, message, details, e.meta);
}
