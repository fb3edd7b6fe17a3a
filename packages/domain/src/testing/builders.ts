import { luhnCheckDigit } from '../learners/sa-id-number.js';
import type { TenantSnapshot } from '../tenants/tenant.js';
import type { ApiKeySnapshot } from '../tenants/api-key.js';
import type { ExportSnapshot } from '../exports/export-record.js';
import { NO_CONTACT_PREFERENCES, type LearnerInput, type LearnerSnapshot } from '../learners/learner.js';
import { emptyProfile } from '../learners/learner-fields.js';
import { newId } from '../common/ids.js';
import type { NewJob } from '../jobs/job.js';

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/**
 * An SA ID number for the given facts with its Luhn digit computed. Defaults: 1990-01-04, male, citizen. The only
 * builder of ID numbers in the tests; citizenship 2 makes one that is invalid only by that digit.
 */
export function anIdNumber(
  o: { yy?: number; mm?: number; dd?: number; sequence?: number; citizenship?: 0 | 1 | 2 } = {},
): string {
  const first12 = `${pad(o.yy ?? 90)}${pad(o.mm ?? 1)}${pad(o.dd ?? 4)}${pad(o.sequence ?? 5800, 4)}${o.citizenship ?? 0}8`;
  return first12 + luhnCheckDigit(first12);
}

/** A valid ID number that is the same for the same n and distinct for each n < 3,650,000 (born 1970 onwards). */
export function idNumberFor(n: number): string {
  const d = new Date(Date.UTC(1970, 0, 1) + Math.floor(n / 10_000) * 86_400_000);
  return anIdNumber({
    yy: d.getUTCFullYear() % 100,
    mm: d.getUTCMonth() + 1,
    dd: d.getUTCDate(),
    sequence: n % 10_000,
  });
}

let seq = 0;

/** A distinct valid ID number per call (varies the sequence digits), for tests that create many learners. */
export function uniqueIdNumber(): string {
  seq = (seq + 1) % 10_000;
  return anIdNumber({ yy: 80 + (seq % 19), mm: 1 + (seq % 12), dd: 1 + (seq % 28), sequence: seq });
}

/** A valid create body; override any field. Email is unique per call unless given. */
export function aLearnerInput(o: LearnerInput = {}): Record<string, unknown> {
  const n = ++seq;
  return {
    firstName: 'Thandi',
    lastName: 'Nkosi',
    idNumber: uniqueIdNumber(),
    email: `learner${n}.${Date.now()}@example.co.za`,
    ...o,
  };
}

/** A stored learner snapshot as the repositories hold it; override any field. */
export function aLearner(o: Partial<LearnerSnapshot> & { tenantId: string }): LearnerSnapshot {
  const at = o.createdAt ?? new Date().toISOString();
  return {
    ...emptyProfile(),
    id: newId('lrn'),
    firstName: 'Thandi',
    lastName: 'Nkosi',
    idNumber: uniqueIdNumber(),
    dateOfBirth: '1990-01-04',
    gender: 'M',
    citizenship: 'citizen',
    email: `learner${++seq}@example.co.za`,
    ...NO_CONTACT_PREFERENCES,
    createdAt: at,
    updatedAt: at,
    ...o,
  };
}

/** A tenant snapshot with a unique slug. */
export function aTenant(o: Partial<TenantSnapshot> = {}): TenantSnapshot {
  const id = newId('ten');
  return {
    id,
    slug: `t-${id.slice(-10)}`,
    name: 'Acme Training',
    plan: 'pilot',
    limitOverrides: {},
    createdAt: new Date().toISOString(),
    ...o,
  };
}

/** An API key snapshot of a tenant (admin, every scope, no expiry). */
export function anApiKey(o: Partial<ApiKeySnapshot> & { tenantId: string }): ApiKeySnapshot {
  const id = newId('key');
  return {
    id,
    name: 'Test key',
    role: 'admin',
    scopes: ['learners:read', 'learners:write'],
    prefix: 'fnd_live_abcd',
    hash: `hash-${id}`,
    expiresAt: null,
    revokedAt: null,
    createdAt: new Date().toISOString(),
    ...o,
  };
}

/** A queued learners CSV export of a tenant, as the repositories hold it; override any field. */
export function anExport(o: Partial<ExportSnapshot> & { tenantId: string }): ExportSnapshot {
  return {
    id: newId('exp'),
    type: 'learners',
    format: 'csv',
    status: 'queued',
    filters: { programmeId: 'prg_1', from: '2026-01-01' },
    fields: ['id_number', 'first_name'],
    rowCount: null,
    fileName: null,
    size: null,
    contentType: null,
    storageKey: null,
    readiness: null,
    error: null,
    createdBy: 'key_1',
    createdAt: '2026-06-01T08:00:00.000Z',
    completedAt: null,
    expiresAt: null,
    purgedAt: null,
    purgeReason: null,
    processedRows: null,
    totalRows: null,
    ...o,
  };
}

/** A job as the queue takes it: due since 2026-01-01, one attempt, no idempotency key. */
export function aNewJob(o: Partial<NewJob> & { id: string }): NewJob {
  return {
    kind: 'test.kind',
    lane: 'short',
    payload: {},
    dueAt: '2026-01-01T00:00:00.000Z',
    maxAttempts: 1,
    idempotencyKey: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    ...o,
  };
}
