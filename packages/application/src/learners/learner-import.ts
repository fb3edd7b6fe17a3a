import { newId } from '@fundi/domain';
import {
  Learner,
  NLRD_CODES,
  NLRD_MEANINGS,
  type NlrdField,
  PROFILE_FIELDS,
  type Address,
  type LearnerInput,
  type LearnerProfile,
  type LearnerSnapshot,
} from '@fundi/domain/learners';
import { codeCell, dateCell, digitsCell, genderCell, yesNoCell, type CellRule } from '../imports/cell-values.js';
import { LEARNERS_WRITTEN_EVENT } from '../learners/learners-written.js';
import {
  cellErrors,
  snake,
  type CellError,
  type Cells,
  type ImportColumn,
  type ImportKind,
} from '../imports/import-kind.js';

/**
 * How a profile field that is not text is spread over cells. Every field whose type is not a string must be named
 * here (a new one fails to compile); a new text field becomes a column by itself.
 */
type NonText = {
  [K in keyof LearnerProfile as NonNullable<LearnerProfile[K]> extends string ? never : K]: NonNullable<
    LearnerProfile[K]
  > extends boolean
    ? 'yes_no'
    : 'address';
};
const SHAPES: NonText = { homeAddress: 'address', postalAddress: 'address', popiActAgree: 'yes_no' };
const shapeOf = (f: keyof LearnerProfile): 'text' | 'yes_no' | 'address' =>
  (SHAPES as Record<string, 'yes_no' | 'address'>)[f] ?? 'text';
const ADDRESS_PARTS: (keyof Address)[] = ['line1', 'line2', 'line3', 'postalCode'];

const EXAMPLES: Partial<Record<string, string>> = {
  email: 'thandi.mokoena@example.co.za',
  mobile: '0821234567',
  middle_name: 'Naledi',
  title: 'Ms',
  equity_code: 'BA',
  nationality_code: 'SA',
  home_language_code: 'Zul',
  citizen_resident_status_code: 'SA',
  province_code: '7',
  employer: 'Acme Mining',
  employee_ref: 'E1001',
  popi_act_agree: 'yes',
  popi_act_date: '2026-01-15',
};

/** How a profile field's cells are read as people write them: codes by meaning, dates, yes/no, phone numbers. */
function cellRuleOf(f: keyof LearnerProfile): CellRule | undefined {
  if (f in NLRD_CODES) return codeCell(f as NlrdField);
  if (f === 'popiActDate') return dateCell;
  if (shapeOf(f) === 'yes_no') return yesNoCell;
  if (f === 'mobile' || f === 'phone') return digitsCell(false);
  return undefined;
}

const GENDER_CODES = { M: 'Male', F: 'Female', O: 'Other (self-described)' };

/** The codes of a coded profile field with their meanings, in the code table's order. */
function codesOf(f: keyof LearnerProfile): Record<string, string> | undefined {
  if (shapeOf(f) === 'yes_no') return { yes: 'Yes (also Y, True, 1)', no: 'No (also N, False, 0)' };
  if (!(f in NLRD_CODES)) return undefined;
  const meanings = NLRD_MEANINGS[f as NlrdField] as Record<string, string>;
  return Object.fromEntries((NLRD_CODES[f as NlrdField] as readonly string[]).map((c) => [c, meanings[c]!]));
}

/** The learner columns: identity first, then one per profile field in snake_case (addresses as four cells). */
export const LEARNER_IMPORT_COLUMNS: readonly ImportColumn[] = [
  { name: 'first_name', required: true, example: 'Thandi' },
  { name: 'last_name', required: true, example: 'Mokoena' },
  // One of id_number and alternate_id (with alternate_id_type, date_of_birth, gender, nationality_code) per row.
  { name: 'id_number', required: false, example: '9202204720083', aliases: ['sa_id_number'], cell: digitsCell(true) },
  { name: 'date_of_birth', required: false, example: '1992-02-20', cell: dateCell, date: true },
  { name: 'gender', required: false, example: 'F', cell: genderCell, codes: GENDER_CODES },
  ...PROFILE_FIELDS.flatMap((f): ImportColumn[] =>
    shapeOf(f) === 'address'
      ? ADDRESS_PARTS.map((p) => ({ name: `${snake(f)}_${snake(p)}`, required: false, example: '' }))
      : [
          {
            name: snake(f),
            required: false,
            example: EXAMPLES[snake(f)] ?? '',
            ...(f === 'provinceCode' ? { aliases: ['province'] } : {}),
            ...(cellRuleOf(f) ? { cell: cellRuleOf(f) } : {}),
            ...(codesOf(f) ? { codes: codesOf(f) } : {}),
            ...(f === 'popiActDate' ? { date: true } : {}),
          },
        ],
  ),
];

const YES = new Set(['yes', 'y', 'true', '1']);
const NO = new Set(['no', 'n', 'false', '0']);

/** Each profile field with its column(s), worked out once (rows are many). */
const FIELDS = PROFILE_FIELDS.map((f) => ({
  f,
  col: snake(f),
  shape: shapeOf(f),
  parts: ADDRESS_PARTS.map((p) => [p, `${snake(f)}_${snake(p)}`] as const),
}));

/** The row's cells as `POST /learners` takes them; what cannot be read goes to `errors`. */
function inputOf(cells: Cells, errors: CellError[]): LearnerInput {
  const input: Record<string, unknown> = {
    firstName: cells.first_name,
    lastName: cells.last_name,
    idNumber: cells.id_number,
  };
  // Without an SA ID number, date of birth and gender are the learner's own (with one they come from the number).
  if (cells.id_number === undefined) {
    input.dateOfBirth = cells.date_of_birth;
    input.gender = cells.gender;
  }
  for (const { f, col, shape, parts: columns } of FIELDS) {
    if (shape === 'text') {
      if (cells[col] !== undefined) input[f] = cells[col];
    } else if (shape === 'yes_no') {
      const v = cells[col]?.toLowerCase();
      if (v === undefined) continue;
      if (YES.has(v)) input[f] = true;
      else if (NO.has(v)) input[f] = false;
      else errors.push({ column: col, error: 'must be yes or no' });
    } else {
      let address: Record<string, string> | undefined;
      for (const [p, c] of columns) {
        const v = cells[c];
        if (v !== undefined) (address ??= {})[p] = v;
      }
      if (address) input[f] = address;
    }
  }
  return input as LearnerInput;
}

/** Learners: every rule of `POST /learners`, plus date of birth and gender given in the file agreeing with the ID. */
export function learnerImport(): ImportKind<LearnerSnapshot, LearnerSnapshot> {
  return {
    type: 'learners',
    columns: LEARNER_IMPORT_COLUMNS,
    tables: ['learners'],
    anyOf: [['id_number', 'alternate_id']],
    parse(cells, now) {
      const errors: CellError[] = [];
      const input = inputOf(cells, errors);
      let learner: LearnerSnapshot | null = null;
      try {
        learner = Learner.registered(input, { id: newId('lrn', now.getTime()), tenantId: '', now });
      } catch (e) {
        errors.push(...cellErrors(e));
      }
      if (learner && cells.date_of_birth !== undefined && cells.date_of_birth !== learner.dateOfBirth)
        errors.push({ column: 'date_of_birth', error: 'does not match the date of birth in the ID number' });
      const g = cells.gender?.toUpperCase();
      if (g !== undefined && g !== 'M' && g !== 'F' && g !== 'O')
        errors.push({ column: 'gender', error: 'must be M, F or O (self-described)' });
      else if (learner && (g === 'M' || g === 'F') && g !== learner.gender)
        errors.push({ column: 'gender', error: `does not match the ID number (${learner.gender})` });
      return errors.length || !learner ? { errors } : { ok: learner };
    },
    uniqueKeys: (l) => {
      const id = l.idNumber
        ? { column: 'id_number', key: l.idNumber, what: 'ID number' }
        : { column: 'alternate_id', key: `${l.alternateIdType}:${l.alternateId}`, what: 'alternative ID' };
      return l.email ? [id, { column: 'email', key: l.email.toLowerCase(), what: 'email' }] : [id];
    },
    cellKeys: (cells) => [
      ...(cells.id_number ? [{ column: 'id_number', key: cells.id_number, what: 'ID number' }] : []),
      ...(cells.email ? [{ column: 'email', key: cells.email.toLowerCase(), what: 'email' }] : []),
    ],
    async resolve(repos, actor, l) {
      return (await this.resolveMany!(repos, actor, [l], new Date()))[0]!;
    },
    async resolveMany(repos, actor, ls) {
      const idNumbers: string[] = [];
      const emails: string[] = [];
      const alternates: string[] = [];
      for (const l of ls) {
        if (l.idNumber) idNumbers.push(l.idNumber);
        if (l.email) emails.push(l.email);
        if (l.alternateId) alternates.push(`${l.alternateIdType}:${l.alternateId}`);
      }
      const taken = await repos.learners.findTaken(actor.tenantId, idNumbers, emails, alternates);
      return ls.map((l) => {
        const byId = l.idNumber
          ? taken.idNumbers.get(l.idNumber)
          : taken.alternates.get(`${l.alternateIdType}:${l.alternateId}`);
        const byEmail = l.email ? taken.emails.get(l.email.toLowerCase()) : undefined;
        if (byId === undefined && byEmail === undefined) {
          // The row is this run's own (made by `parse` for this walk): it takes the tenant in place, which spares a
          // copy of sixty fields a learner.
          l.tenantId = actor.tenantId;
          return { ok: l };
        }
        const errors: CellError[] = [];
        if (byId)
          errors.push(
            l.idNumber
              ? { column: 'id_number', error: `a learner with this ID number exists already (${byId})` }
              : { column: 'alternate_id', error: `a learner with this alternative ID exists already (${byId})` },
          );
        if (byEmail) errors.push({ column: 'email', error: `a learner with this email exists already (${byEmail})` });
        return { errors };
      });
    },
    async messagesDue(_repos, _tenantId, l) {
      return [{ template: 'welcome', learner: l }];
    },
    async write(tx, _actor, _now, rows) {
      await tx.learners.insertMany(rows);
      // One compact event for the batch: its `learner.created` events are made where they are wanted
      // (learners-written.ts), so a batch does not store a kilobyte per learner that nobody may read.
      return [{ type: LEARNERS_WRITTEN_EVENT, data: { learnerIds: rows.map((l) => l.id) } }];
    },
  };
}
