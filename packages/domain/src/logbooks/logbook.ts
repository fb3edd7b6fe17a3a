import { DomainError, collect, type ErrorDetail } from '../common/errors.js';
import { IsoDate } from '../common/dates.js';
import { safeText } from '../common/text.js';
import { Email, Mobile } from '../learners/contact.js';

export const LOGBOOK_STATUSES = ['draft', 'submitted', 'signed', 'queried'] as const;
export type LogbookStatus = (typeof LOGBOOK_STATUSES)[number];

export interface Supervisor {
  name: string;
  email: string | null;
  /** E.164. */
  mobile: string | null;
}

/** What the supervisor did with a submitted entry, and the record of it (docs/api.md, "Logbooks"). */
export interface LogbookSignOff {
  outcome: 'confirmed' | 'queried';
  /** The supervisor's name as shown on the page they answered. */
  by: string;
  at: string;
  /** The client address the answer came from. */
  ip: string;
  /** SHA-256 of exactly what the page showed and the supervisor answered for (`logbookContentHash`). */
  hash: string;
  comment: string | null;
}

/** A day of workplace hours for a module of kind `workplace`, with what was done and who supervised it. */
export interface LogbookEntrySnapshot {
  id: string;
  tenantId: string;
  learnerId: string;
  enrolmentId: string;
  moduleCode: string;
  date: string;
  hours: number;
  activity: string;
  workplace: string;
  supervisor: Supervisor;
  /** Evidence ids of photos attached to the entry. */
  evidenceIds: string[];
  status: LogbookStatus;
  submittedAt: string | null;
  /**
   * The sign-off request the entry was last submitted in (`lbs_...`): the entries of one learner submitted together
   * to one supervisor share it and one link (docs/api.md, "Logbooks"). Null while a draft.
   */
  submissionId: string | null;
  signedAt: string | null;
  signOff: LogbookSignOff | null;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
}

export interface LogbookInput {
  learnerId?: unknown;
  moduleCode?: unknown;
  enrolmentId?: unknown;
  date?: unknown;
  hours?: unknown;
  activity?: unknown;
  workplace?: unknown;
  supervisor?: unknown;
  evidenceIds?: unknown;
}

function text(field: string, v: unknown, max: number): string {
  if (typeof v !== 'string' || !v.trim()) throw DomainError.invalid(field, 'must be a non-empty string');
  if (v.trim().length > max) throw DomainError.invalid(field, `must be at most ${max} characters`);
  return safeText(v.trim(), field);
}

/** Hours in quarters of an hour, more than 0 and at most 24. */
function hours(v: unknown): number {
  if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0 || v > 24 || Math.round(v * 4) !== v * 4)
    throw DomainError.invalid('hours', 'must be a number of hours above 0 and at most 24, in quarters of an hour');
  return v;
}

function supervisor(v: unknown): Supervisor {
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    throw DomainError.invalid('supervisor', 'must be an object {name, email?, mobile?}');
  const s = v as Record<string, unknown>;
  const errors: ErrorDetail[] = [];
  const name = collect(errors, () => text('supervisor.name', s.name, 200));
  const email = s.email == null ? null : collect(errors, () => Email.parse(s.email, 'supervisor.email').toLowerCase());
  const mobile = s.mobile == null ? null : collect(errors, () => Mobile.parse(s.mobile, 'supervisor.mobile'));
  if (!errors.length && !email && !mobile)
    errors.push({ field: 'supervisor', message: 'needs an email or a mobile number to receive the sign-off link' });
  if (errors.length) throw DomainError.invalidMany(errors);
  return { name: name!, email: email ?? null, mobile: mobile ?? null };
}

function evidenceIds(v: unknown): string[] {
  if (v == null) return [];
  if (!Array.isArray(v) || v.length > 20 || !v.every((x) => typeof x === 'string' && /^evd_\w{1,40}$/.test(x)))
    throw DomainError.invalid('evidenceIds', 'must be an array of at most 20 evidence ids');
  return [...new Set(v as string[])];
}

/** The fields a learner or staff may give and change while the entry is not signed. */
function parseFields(input: LogbookInput, partial: boolean) {
  const errors: ErrorDetail[] = [];
  const take = <T>(key: keyof LogbookInput, f: () => T): T | undefined =>
    partial && input[key] === undefined ? undefined : collect(errors, f);
  const out = {
    date: take('date', () => IsoDate.parse(input.date, 'date')),
    hours: take('hours', () => hours(input.hours)),
    activity: take('activity', () => text('activity', input.activity, 2000)),
    workplace: take('workplace', () => text('workplace', input.workplace, 200)),
    supervisor: take('supervisor', () => supervisor(input.supervisor)),
    evidenceIds: take('evidenceIds', () => evidenceIds(input.evidenceIds)),
  };
  if (errors.length) throw DomainError.invalidMany(errors);
  return out;
}

const signedFrozen = (e: LogbookEntrySnapshot) =>
  DomainError.conflict('logbook_signed', `Logbook entry ${e.id} is signed and cannot change: record a new entry`);

export const LogbookEntry = {
  /** A new draft; where it belongs (learner, enrolment, workplace module) is the caller's to establish. */
  create(
    input: LogbookInput,
    ctx: {
      id: string;
      tenantId: string;
      learnerId: string;
      enrolmentId: string;
      moduleCode: string;
      actor: string;
      now: Date;
    },
  ): LogbookEntrySnapshot {
    const f = parseFields(input, false);
    const at = ctx.now.toISOString();
    return {
      id: ctx.id,
      tenantId: ctx.tenantId,
      learnerId: ctx.learnerId,
      enrolmentId: ctx.enrolmentId,
      moduleCode: ctx.moduleCode,
      date: f.date!,
      hours: f.hours!,
      activity: f.activity!,
      workplace: f.workplace!,
      supervisor: f.supervisor!,
      evidenceIds: f.evidenceIds ?? [],
      status: 'draft',
      submittedAt: null,
      submissionId: null,
      signedAt: null,
      signOff: null,
      createdBy: ctx.actor,
      createdAt: at,
      updatedAt: at,
    };
  },

  /** Changes the given fields; a submitted or queried entry goes back to draft (its sign-off link stops working). */
  update(e: LogbookEntrySnapshot, input: LogbookInput, now: Date): LogbookEntrySnapshot {
    if (e.status === 'signed') throw signedFrozen(e);
    const f = parseFields(input, true);
    const next: LogbookEntrySnapshot = {
      ...e,
      status: 'draft',
      submittedAt: null,
      submissionId: null,
      updatedAt: now.toISOString(),
    };
    for (const [k, v] of Object.entries(f)) if (v !== undefined) Object.assign(next, { [k]: v });
    return next;
  },

  /** Sends the entry for sign-off in the sign-off request `submissionId` (an earlier request's link stops working). */
  submit(e: LogbookEntrySnapshot, now: Date, submissionId: string): LogbookEntrySnapshot {
    if (e.status === 'signed') throw signedFrozen(e);
    const at = now.toISOString();
    return { ...e, status: 'submitted', submittedAt: at, submissionId, signOff: null, updatedAt: at };
  },

  /** The supervisor's answer to a submitted entry: `signed` (frozen from now on) or `queried` with a comment. */
  answer(e: LogbookEntrySnapshot, signOff: LogbookSignOff): LogbookEntrySnapshot {
    if (e.status !== 'submitted')
      throw DomainError.conflict('logbook_not_submitted', `Logbook entry ${e.id} is not waiting for sign-off`);
    if (signOff.outcome === 'queried' && !signOff.comment)
      throw DomainError.invalid('comment', 'is required to query an entry: say what is wrong');
    const signed = signOff.outcome === 'confirmed';
    return {
      ...e,
      status: signed ? 'signed' : 'queried',
      signedAt: signed ? signOff.at : null,
      signOff,
      updatedAt: signOff.at,
    };
  },

  assertDeletable(e: LogbookEntrySnapshot): void {
    if (e.status === 'signed') throw signedFrozen(e);
  },
};

/**
 * What a supervisor signs for one entry, as one canonical text: hashed into the sign-off record, so what was signed
 * can be proved later.
 */
export function logbookContent(e: LogbookEntrySnapshot): string {
  return JSON.stringify([e.id, e.learnerId, e.moduleCode, e.date, e.hours, e.activity, e.workplace, e.supervisor.name]);
}

/**
 * Where the entry's sign-off link goes: the supervisor's email, else their mobile. Entries submitted together with
 * the same address share one sign-off request; different addresses get one each.
 */
export function supervisorAddress(e: Pick<LogbookEntrySnapshot, 'supervisor'>): string {
  return e.supervisor.email?.toLowerCase() ?? e.supervisor.mobile ?? e.supervisor.name.toLowerCase();
}

/** Hours per workplace module: logged (every entry), signed, and required by the module. */
export interface LogbookHours {
  moduleCode: string;
  logged: number;
  signed: number;
  required: number | null;
  /** Signed hours reach the requirement: ready for assessment (shown to assessors). */
  ready: boolean;
}
