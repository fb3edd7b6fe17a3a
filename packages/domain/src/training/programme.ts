import { DomainError, type ErrorDetail } from '../common/errors.js';
import { text } from '../learners/learner-fields.js';
import { oneOf } from './parse.js';

export const PROGRAMME_TYPES = [
  'occupational_qualification',
  'part_qualification',
  'skills_programme',
  'learnership',
  'short_course',
] as const;
export type ProgrammeType = (typeof PROGRAMME_TYPES)[number];
export const MODULE_KINDS = ['knowledge', 'practical', 'workplace'] as const;
export type ModuleKind = (typeof MODULE_KINDS)[number];

export interface ProgrammeModule {
  code: string;
  name: string;
  kind: ModuleKind;
  credits: number | null;
  /** Workplace modules only: the hours of signed logbook entries the module asks for (docs/api.md, "Logbooks"). */
  requiredHours?: number;
}

export interface ProgrammeSnapshot {
  id: string;
  tenantId: string;
  code: string;
  name: string;
  type: ProgrammeType;
  qualificationId: string | null;
  nqfLevel: number | null;
  modules: ProgrammeModule[];
  /** A retired programme takes no new enrolments but still shows (docs/api.md, "Programmes"). */
  status: 'active' | 'retired';
  retiredAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export type ProgrammeInput = Partial<
  Record<'code' | 'name' | 'type' | 'qualificationId' | 'nqfLevel' | 'modules', unknown>
>;
type Fields = Pick<ProgrammeSnapshot, 'name' | 'type' | 'qualificationId' | 'nqfLevel' | 'modules'>;

const CODE = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,49}$/;

export function programmeCode(value: unknown, field: string): string {
  if (typeof value !== 'string' || !CODE.test(value)) {
    throw DomainError.invalid(
      field,
      'must be 1-50 letters, digits, dots, slashes, underscores or hyphens, starting with a letter or digit',
    );
  }
  return value;
}

function parseModule(value: unknown, i: number): ProgrammeModule {
  const f = `modules.${i}`;
  if (typeof value !== 'object' || value === null) throw DomainError.invalid(f, 'must be an object');
  const m = value as Record<string, unknown>;
  const credits = m.credits ?? null;
  if (
    credits !== null &&
    (typeof credits !== 'number' || !Number.isInteger(credits) || credits < 0 || credits > 1000)
  ) {
    throw DomainError.invalid(`${f}.credits`, 'must be a whole number from 0 to 1000');
  }
  const kind = oneOf(MODULE_KINDS, m.kind, `${f}.kind`);
  const hours = m.requiredHours ?? null;
  if (hours !== null) {
    if (kind !== 'workplace') throw DomainError.invalid(`${f}.requiredHours`, 'is for workplace modules only');
    if (typeof hours !== 'number' || !Number.isInteger(hours) || hours < 1 || hours > 10_000)
      throw DomainError.invalid(`${f}.requiredHours`, 'must be a whole number of hours from 1 to 10000');
  }
  return {
    code: programmeCode(m.code, `${f}.code`),
    name: text(`${f}.name`, m.name, 200),
    kind,
    credits: credits as number | null,
    ...(hours !== null ? { requiredHours: hours as number } : {}),
  };
}

function parseModules(value: unknown): ProgrammeModule[] {
  if (!Array.isArray(value) || value.length === 0 || value.length > 200)
    throw DomainError.invalid('modules', 'must be a list of 1 to 200 modules');
  const modules = value.map(parseModule);
  const seen = new Set<string>();
  modules.forEach((m, i) => {
    if (seen.has(m.code))
      throw DomainError.invalid(
        `modules.${i}.code`,
        `duplicates module code ${m.code}; a module code is unique within its programme`,
      );
    seen.add(m.code);
  });
  return modules;
}

const PARSERS: { [K in keyof Fields]: (v: unknown) => Fields[K] } = {
  name: (v) => text('name', v, 200),
  type: (v) => oneOf(PROGRAMME_TYPES, v, 'type'),
  qualificationId: (v) => (v == null ? null : text('qualificationId', typeof v === 'number' ? String(v) : v, 50)),
  nqfLevel: (v) => {
    if (v == null) return null;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 10)
      throw DomainError.invalid('nqfLevel', 'must be a whole number from 0 to 10');
    return v;
  },
  modules: parseModules,
};

/** Parses the fields present in `input` (`create`: every required one, plus the code), collecting every failing field. */
function parseFields(input: ProgrammeInput, mode: 'create' | 'update'): Partial<Fields> & { code?: string } {
  const out: Record<string, unknown> = {};
  const errors: ErrorDetail[] = [];
  const parsers: Record<string, (v: unknown) => unknown> =
    mode === 'create' ? { code: (v) => programmeCode(v, 'code'), ...PARSERS } : PARSERS;
  for (const [k, parse] of Object.entries(parsers)) {
    if (input[k as keyof ProgrammeInput] === undefined && !(mode === 'create' && REQUIRED.includes(k))) continue;
    try {
      out[k] = parse(input[k as keyof ProgrammeInput]);
    } catch (e) {
      if (!(e instanceof DomainError)) throw e;
      errors.push(...e.details);
    }
  }
  if (errors.length) throw DomainError.invalidMany(errors);
  return out as Partial<Fields>;
}

const REQUIRED = ['code', 'name', 'type', 'modules'];

export const Programme = {
  create(input: ProgrammeInput, ctx: { id: string; tenantId: string; now: Date }): ProgrammeSnapshot {
    const fields = parseFields(input, 'create') as Fields & { code: string };
    const at = ctx.now.toISOString();
    return {
      id: ctx.id,
      tenantId: ctx.tenantId,
      code: fields.code,
      name: fields.name,
      type: fields.type,
      qualificationId: fields.qualificationId ?? null,
      nqfLevel: fields.nqfLevel ?? null,
      modules: fields.modules,
      status: 'active',
      retiredAt: null,
      createdAt: at,
      updatedAt: at,
    };
  },

  /** Applies a partial update (the code never changes); returns the new snapshot and the changed field names. */
  update(p: ProgrammeSnapshot, input: ProgrammeInput, now: Date): { next: ProgrammeSnapshot; changed: string[] } {
    const fields = parseFields(input, 'update');
    const changed = Object.keys(fields).filter(
      (k) => JSON.stringify(fields[k as keyof Fields]) !== JSON.stringify(p[k as keyof Fields]),
    );
    if (changed.length === 0) return { next: p, changed };
    return { next: { ...p, ...fields, updatedAt: now.toISOString() }, changed };
  },

  retire(p: ProgrammeSnapshot, now: Date): ProgrammeSnapshot {
    return p.status === 'retired'
      ? p
      : { ...p, status: 'retired', retiredAt: now.toISOString(), updatedAt: now.toISOString() };
  },

  /** Module codes of `before` that `after` no longer has. */
  removedModules(before: ProgrammeSnapshot, after: ProgrammeSnapshot): string[] {
    const kept = new Set(after.modules.map((m) => m.code));
    return before.modules.filter((m) => !kept.has(m.code)).map((m) => m.code);
  },

  hasModule(p: ProgrammeSnapshot, code: string): boolean {
    return p.modules.some((m) => m.code === code);
  },
};
