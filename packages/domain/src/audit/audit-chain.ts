import { createHash, randomBytes } from 'node:crypto';
import type { AuditEntry } from './audit.js';

/** The `prevHash` of a tenant's first entry. */
export const AUDIT_GENESIS = '0'.repeat(64);

/**
 * An audit entry as stored: every column as its stored text, so that the hash is computed over exactly the bytes
 * kept and a changed byte anywhere shows. `seq` counts the tenant's entries from 1 without gaps.
 */
export interface ChainRow {
  id: string;
  tenantId: string;
  seq: number;
  prevHash: string;
  hash: string;
  actor: string;
  action: string;
  resourceType: string;
  resourceId: string;
  learnerId: string | null;
  at: string;
  details: string;
  changes: string | null;
  /** JSON list of the personal fields changed (their values are kept apart: `PersonalValues`). */
  personalFields: string | null;
  /** SHA-256 of the personal values with their salt: the chain covers them while they exist. */
  personalDigest: string | null;
  via: string | null;
  ip: string | null;
}

/** The personal values of one entry, kept apart from it until the learner is erased. */
export interface PersonalValues {
  entryId: string;
  tenantId: string;
  learnerId: string | null;
  salt: string;
  data: string;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * The hash of a row: SHA-256 over its previous hash and every stored column but `hash` itself, as the JSON array
 * `[prevHash, seq, ...chainTail(r)]`, written here from its two leading values and `chainTail`, the one list of the
 * other columns (the Postgres append builds the same text in SQL).
 */
export function chainHash(r: Omit<ChainRow, 'hash'>): string {
  return sha256(`[${JSON.stringify(r.prevHash)},${JSON.stringify(r.seq)},${chainTail(r)}`);
}

/**
 * What follows `["<prevHash>",<seq>,` in the text `chainHash` hashes: the row's other columns as JSON, with the
 * closing bracket. A writer that learns the previous hash and seq only inside the database (the Postgres append,
 * docs/architecture.md, "Writes: audit and outbox in one transaction") hashes `["` + prevHash + `",` + seq + `,` + this there; for a hex prevHash
 * and an integer seq that is exactly the text `chainHash` hashes.
 */
export function chainTail(r: Omit<ChainRow, 'hash' | 'prevHash' | 'seq'>): string {
  return JSON.stringify([
    r.id,
    r.tenantId,
    r.actor,
    r.action,
    r.resourceType,
    r.resourceId,
    r.learnerId,
    r.at,
    r.details,
    r.changes,
    r.personalFields,
    r.personalDigest,
    r.via,
    r.ip,
  ]).slice(1);
}

/** The digest of an entry's personal values (salted, so that a known value cannot be confirmed from it). */
export const personalDigest = (salt: string, data: string) => sha256(`${salt}\n${data}`);

/**
 * The row and personal values of a new entry that follows `prev` (the tenant's last hash and seq): its columns,
 * a fresh salt for the personal values, and its hash.
 */
export function chainEntry(
  e: AuditEntry,
  prev: { seq: number; hash: string },
): { row: ChainRow; personal: PersonalValues | null } {
  const { columns, personal } = entryColumns(e);
  const row: Omit<ChainRow, 'hash'> = { ...columns, seq: prev.seq + 1, prevHash: prev.hash };
  return { row: { ...row, hash: chainHash(row) }, personal };
}

/** A new entry's columns but its place in the chain (`seq`, `prevHash`, `hash`), and its personal values apart. */
export function entryColumns(e: AuditEntry): {
  columns: Omit<ChainRow, 'hash' | 'prevHash' | 'seq'>;
  personal: PersonalValues | null;
} {
  const personalNames = e.personal ? Object.keys(e.personal) : [];
  let personal: PersonalValues | null = null;
  if (personalNames.length > 0)
    personal = {
      entryId: e.id,
      tenantId: e.tenantId,
      learnerId: e.learnerId ?? null,
      salt: randomBytes(16).toString('hex'),
      data: JSON.stringify(e.personal),
    };
  const changes = e.changes && Object.keys(e.changes).length > 0 ? JSON.stringify(e.changes) : null;
  const columns: Omit<ChainRow, 'hash' | 'prevHash' | 'seq'> = {
    id: e.id,
    tenantId: e.tenantId,
    actor: e.actor,
    action: e.action,
    resourceType: e.resourceType,
    resourceId: e.resourceId,
    learnerId: e.learnerId ?? null,
    at: e.at,
    details: JSON.stringify(e.details),
    changes,
    personalFields: personal ? JSON.stringify(personalNames) : null,
    personalDigest: personal ? personalDigest(personal.salt, personal.data) : null,
    via: e.via ?? null,
    ip: e.ip ?? null,
  };
  return { columns, personal };
}

/** An entry read back from its row (personal values not merged: see the audit trail's views). */
export function entryOfRow(r: ChainRow): AuditEntry {
  return {
    id: r.id,
    tenantId: r.tenantId,
    actor: r.actor,
    action: r.action,
    resourceType: r.resourceType,
    resourceId: r.resourceId,
    at: r.at,
    details: JSON.parse(r.details) as Record<string, unknown>,
    ...(r.learnerId ? { learnerId: r.learnerId } : {}),
    ...(r.changes ? { changes: JSON.parse(r.changes) } : {}),
    ...(r.via ? { via: r.via as AuditEntry['via'] } : {}),
    ...(r.ip ? { ip: r.ip } : {}),
  };
}

/** Where a tenant's chain first fails, and why; null when every row checked holds. */
export interface ChainBreak {
  id: string;
  seq: number;
  reason: 'hash_mismatch' | 'link_mismatch' | 'sequence_gap' | 'personal_values_altered' | 'head_mismatch';
}

/**
 * Checks rows of one tenant in `seq` order, following `prev` (the last checked row's seq and hash, or 0 and the
 * genesis). Answers the first break, or null, and the new `prev`.
 */
export function checkChain(
  rows: readonly ChainRow[],
  prev: { seq: number; hash: string },
  personalOf: (id: string) => PersonalValues | undefined,
): { broken: ChainBreak | null; prev: { seq: number; hash: string } } {
  let p = prev;
  for (const r of rows) {
    const at = (reason: ChainBreak['reason']) => ({ broken: { id: r.id, seq: r.seq, reason }, prev: p });
    if (r.seq !== p.seq + 1) return at('sequence_gap');
    if (r.prevHash !== p.hash) return at('link_mismatch');
    const { hash, ...rest } = r;
    if (chainHash(rest) !== hash) return at('hash_mismatch');
    const pv = personalOf(r.id);
    if (pv && (r.personalDigest === null || personalDigest(pv.salt, pv.data) !== r.personalDigest))
      return at('personal_values_altered');
    p = { seq: r.seq, hash: r.hash };
  }
  return { broken: null, prev: p };
}
