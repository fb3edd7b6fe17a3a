import type { SessionContext } from '@fundi/application/staff';
import { ALTERNATE_ID_TYPES, NLRD_CODES, type LearnerInput, type NlrdField } from '@fundi/domain/learners';
import { html, type Html } from '../dashboard/html.js';
import { csrf } from '../dashboard/layout.js';
import { CODE_LABELS } from '../dashboard/forms/code-labels.js';

/** What the form shows: a stored learner's fields, or the posted text when the API refused it. */
export type LearnerValues = Record<string, string | undefined>;

/** Form labels of the learner's fields: also how the readiness report names a field (docs/dashboard.md). */
export const FIELD_LABELS: Record<string, string> = {
  title: 'Title',
  firstName: 'First name',
  middleName: 'Middle name',
  lastName: 'Last name',
  idNumber: 'SA ID number',
  alternateId: 'Alternative ID (passport, permit, ...)',
  alternateIdType: 'Alternative ID type',
  dateOfBirth: 'Date of birth',
  gender: 'Gender',
  email: 'Email',
  mobile: 'Mobile',
  phone: 'Other phone',
  equityCode: 'Population group (equity)',
  nationalityCode: 'Nationality',
  homeLanguageCode: 'Home language',
  citizenResidentStatusCode: 'Citizen or resident status',
  socioeconomicStatusCode: 'Socio-economic status',
  disabilityStatusCode: 'Disability',
  disabilityRating: 'Disability rating',
  immigrantStatus: 'Immigrant status',
  provinceCode: 'Province',
  statssaAreaCode: 'Stats SA area code',
  popiActAgree: 'Agreed to the POPI Act notice',
  popiActDate: 'POPI Act agreement date',
  employer: 'Employer',
  employeeRef: 'Employee reference',
  department: 'Department',
  jobTitle: 'Job title',
  'homeAddress.line1': 'Home address line 1',
  'homeAddress.line2': 'Home address line 2',
  'homeAddress.line3': 'Home address line 3',
  'homeAddress.postalCode': 'Home postal code',
  'postalAddress.line1': 'Postal address line 1',
  'postalAddress.line2': 'Postal address line 2',
  'postalAddress.line3': 'Postal address line 3',
  'postalAddress.postalCode': 'Postal code (postal address)',
};
const TEXT = ['firstName', 'middleName', 'lastName', 'email', 'mobile', 'phone', 'statssaAreaCode'] as const;
const WORK = ['employer', 'employeeRef', 'department', 'jobTitle'] as const;
const CODED = Object.keys(NLRD_CODES).filter((f) => f !== 'title') as NlrdField[];
const ADDRESS = ['line1', 'line2', 'line3', 'postalCode'] as const;

/** The id of a field's control, so a readiness finding can link straight to it (`#f-nationalityCode`). */
export const controlId = (name: string) => `f-${name.replace('.', '-')}`;

function input(v: LearnerValues, name: string, attrs: Html | null = null): Html {
  return html`<div><label for="${controlId(name)}">${FIELD_LABELS[name]}</label><input id="${controlId(name)}" name="${name}" value="${v[name] ?? ''}"${attrs}></div>`;
}

function choice(v: LearnerValues, name: string, options: [string, string][]): Html {
  return html`<div><label for="${controlId(name)}">${FIELD_LABELS[name]}</label><select id="${controlId(name)}" name="${name}"><option value="">not known</option>${options.map(
    ([code, text]) => html`<option value="${code}"${v[name] === code ? ' selected' : ''}>${text}</option>`,
  )}</select></div>`;
}

/** A coded field: each choice shows its meaning and the code the regulator's file carries. */
const coded = (v: LearnerValues, f: NlrdField) =>
  choice(
    v,
    f,
    Object.entries(CODE_LABELS[f]).map(([code, meaning]) => [code, meaning === code ? code : `${meaning} (${code})`]),
  );

function address(v: LearnerValues, which: 'homeAddress' | 'postalAddress', legend: string): Html {
  return html`<fieldset><legend>${legend}</legend><div class="grid2">${ADDRESS.map((k) =>
    input(v, `${which}.${k}`, k === 'postalCode' ? html` inputmode="numeric" maxlength="4"` : html` maxlength="50"`),
  )}</div></fieldset>`;
}

/**
 * The learner form with the whole QCTO profile. Coded fields are choices showing their meaning; the SA ID's facts
 * (date of birth, gender, citizenship) are shown from the number as it is typed by app.js, and the server derives
 * them again, so the form works without the script.
 */
export function learnerForm(s: SessionContext, action: string, v: LearnerValues, submit: string): Html {
  return html`<form class="card" method="post" action="${action}">${csrf(s)}
<fieldset><legend>Name</legend><div class="grid2">${choice(
    v,
    'title',
    NLRD_CODES.title.map((t) => [t, t]),
  )}${input(v, 'firstName', html` required maxlength="100" autocomplete="off"`)}${input(v, 'middleName', html` maxlength="100"`)}${input(v, 'lastName', html` required maxlength="100" autocomplete="off"`)}</div></fieldset>
<fieldset><legend>Identity</legend><div class="grid2">
${input(v, 'idNumber', html` inputmode="numeric" maxlength="13" autocomplete="off" aria-describedby="id-facts" data-sa-id`)}
<p id="id-facts" class="muted" aria-live="polite">With an SA ID number, the date of birth, gender and citizenship come from the number.</p>
${input(v, 'alternateId', html` maxlength="20"`)}
${choice(
  v,
  'alternateIdType',
  Object.keys(ALTERNATE_ID_TYPES).map((k) => [k, k.replace('_', ' ')]),
)}
${input(v, 'dateOfBirth', html` type="date"`)}
${choice(v, 'gender', [
  ['F', 'Female'],
  ['M', 'Male'],
])}</div>
<p class="muted">Date of birth and gender are needed only with an alternative ID.</p></fieldset>
<fieldset><legend>Contact</legend><div class="grid2">${input(v, 'email', html` type="email" maxlength="254"`)}${input(v, 'mobile', html` type="tel" placeholder="082 123 4567"`)}${input(v, 'phone', html` type="tel"`)}</div></fieldset>
<fieldset><legend>QCTO profile</legend><div class="grid2">${CODED.map((f) => coded(v, f))}${input(v, 'statssaAreaCode', html` maxlength="20"`)}
${choice(v, 'popiActAgree', [
  ['true', 'Yes'],
  ['false', 'No'],
])}${input(v, 'popiActDate', html` type="date"`)}</div></fieldset>
${address(v, 'homeAddress', 'Home address')}${address(v, 'postalAddress', 'Postal address')}
<fieldset><legend>Work</legend><div class="grid2">${WORK.map((f) => input(v, f, html` maxlength="200"`))}</div></fieldset>
<button type="submit">${submit}</button></form>`;
}

/** A stored learner as the form's text values. */
export function valuesOf(l: Record<string, unknown>): LearnerValues {
  const v: LearnerValues = {};
  for (const name of Object.keys(FIELD_LABELS)) {
    const [top, sub] = name.split('.') as [string, string | undefined];
    const raw = sub ? (l[top] as Record<string, unknown> | null)?.[sub] : l[top];
    if (raw !== null && raw !== undefined) v[name] = String(raw);
  }
  if (l.alternateId == null) {
    delete v.dateOfBirth;
    delete v.gender;
  }
  return v;
}

/**
 * The posted form as the API's learner input. Creating, an empty field is left out; editing, it clears the field
 * (`null`), except the names, which a learner always has. With an SA ID number the date of birth and gender are
 * left to the number.
 */
export function learnerInput(form: URLSearchParams, editing: boolean): { input: LearnerInput; values: LearnerValues } {
  const values: LearnerValues = {};
  for (const name of Object.keys(FIELD_LABELS)) {
    const t = form.get(name)?.trim();
    if (t) values[name] = t;
  }
  const empty = editing ? null : undefined;
  const one = (name: string) => values[name] ?? empty;
  const out: Record<string, unknown> = {};
  for (const f of [...TEXT, ...WORK, ...CODED, 'title', 'alternateId', 'alternateIdType', 'popiActDate'])
    out[f] = one(f);
  out.firstName = values.firstName ?? '';
  out.lastName = values.lastName ?? '';
  out.idNumber = values.idNumber?.replace(/\s/g, '') ?? empty;
  out.popiActAgree = values.popiActAgree === undefined ? empty : values.popiActAgree === 'true';
  if (!values.idNumber) {
    out.dateOfBirth = values.dateOfBirth;
    out.gender = values.gender;
  }
  for (const which of ['homeAddress', 'postalAddress'] as const) {
    const parts = Object.fromEntries(ADDRESS.map((k) => [k, values[`${which}.${k}`] ?? null]));
    out[which] = Object.values(parts).some((x) => x !== null) ? parts : empty;
  }
  return { input: out as LearnerInput, values };
}
