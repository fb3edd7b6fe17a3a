import { DEFAULT_RETENTION_YEARS, DomainError, EVIDENCE_RESTORE_DAYS, type PurgeCandidate } from '@fundi/domain';
import type { Actor } from '../common/actor.js';
import { recordChange } from '../common/record-change.js';
import type { EvidencePorts } from './evidence-ports.js';
import { scheduleScrub } from '../learners/learner-erasure.js';

const DAY_MS = 86_400_000;

/** Removes one piece for good: its bytes first, then the record, with an audit entry by the system that stays. */
async function removeForGood(
  d: Pick<EvidencePorts, 'files' | 'uow'>,
  c: PurgeCandidate,
  now: Date,
  action: string,
  details: Record<string, unknown> = {},
): Promise<void> {
  for (const key of c.storageKeys) await d.files.remove(key);
  await d.uow.run(async (tx) => {
    await tx.evidence.remove(c.tenantId, c.id);
    await recordChange(tx, { tenantId: c.tenantId, id: 'system', role: 'admin', scopes: [] }, now, {
      action,
      resourceType: 'evidence',
      resourceId: c.id,
      learnerId: c.learnerId,
      details: { versions: c.storageKeys.length, ...details },
    });
  });
}

/**
 * Removing evidence for good, and keeping its keys current (docs/api.md, "Evidence"): purges after the restore
 * period and past the tenant's retention, erasure with the learner, and the re-wrap after a master-key rotation.
 * Bytes go first, then the record; an audit entry stays for each piece removed.
 */
export class EvidenceRetention {
  constructor(private readonly d: EvidencePorts) {}

  /** Purges evidence deleted more than 30 days ago: bytes first, then the record; an audit record stays. */
  async purgeDeleted(batch = 100): Promise<number> {
    const now = this.d.clock.now();
    const before = new Date(now.getTime() - EVIDENCE_RESTORE_DAYS * DAY_MS).toISOString();
    let purged = 0;
    for (;;) {
      const found = await this.d.repos.evidence.deletedBefore(before, batch);
      for (const c of found) {
        await removeForGood(this.d, c, now, 'evidence.purged');
        purged++;
      }
      if (found.length < batch) return purged;
    }
  }

  /**
   * After a master-key rotation: wraps every stored version's data key under the current master key, without
   * rewriting the encrypted content (docs/architecture.md, "Files"). Returns how many were re-wrapped and seen.
   */
  async rewrapFiles(batch = 500): Promise<{ rewrapped: number; files: number }> {
    let after: string | null = null;
    let rewrapped = 0;
    let files = 0;
    for (;;) {
      const keys = await this.d.repos.evidence.storageKeys(after, batch);
      for (const key of keys) {
        if (await this.d.files.rewrap(key)) rewrapped++;
        files++;
      }
      if (keys.length < batch) return { rewrapped, files };
      after = keys[keys.length - 1]!;
    }
  }

  /** The tenant's retention in years after an enrolment's completion (7 unless set). */
  async retentionYears(tenantId: string): Promise<number> {
    return (await this.d.repos.evidenceSettings.retentionYears(tenantId)) ?? DEFAULT_RETENTION_YEARS;
  }

  /** Sets a tenant's retention (operator: `fundi evidence retention`, or an administrator); 1 to 50 years. */
  async setRetentionYears(tenantSlug: string, years: unknown, actor?: Actor): Promise<number> {
    if (typeof years !== 'number' || !Number.isInteger(years) || years < 1 || years > 50)
      throw DomainError.invalid('years', 'must be a whole number of years from 1 to 50');
    const tenant = await this.d.repos.tenants.findBySlug(tenantSlug);
    if (!tenant) throw DomainError.notFound('tenant', tenantSlug);
    const now = this.d.clock.now();
    await this.d.uow.run(async (tx) => {
      await tx.evidenceSettings.setRetentionYears(tenant.id, years);
      await recordChange(tx, actor ?? { tenantId: tenant.id, id: 'cli', role: 'admin', scopes: [] }, now, {
        action: 'evidence.retention_set',
        resourceType: 'tenant',
        resourceId: tenant.id,
        details: { years },
      });
    });
    return years;
  }

  /**
   * Purges evidence whose enrolment was completed longer ago than the tenant's retention: bytes, then records; an
   * audit entry stays for each.
   */
  async purgePastRetention(batch = 100): Promise<number> {
    const now = this.d.clock.now();
    let purged = 0;
    for (const tenant of await this.d.repos.tenants.list()) {
      const years = await this.retentionYears(tenant.id);
      const cutoff = new Date(now);
      cutoff.setUTCFullYear(cutoff.getUTCFullYear() - years);
      const day = cutoff.toISOString().slice(0, 10);
      for (;;) {
        const found = await this.d.repos.evidence.pastRetention(tenant.id, day, batch);
        for (const c of found) {
          await removeForGood(this.d, c, now, 'evidence.retention_purged', { retentionYears: years });
          purged++;
        }
        if (found.length < batch) break;
      }
    }
    return purged;
  }

  /**
   * An erased learner's evidence goes at once: bytes, records and upload tickets; the audit keeps that it happened.
   * The records held file names and descriptions: the store's files are scrubbed of them afterwards.
   */
  async eraseLearner(tenantId: string, learnerId: string): Promise<number> {
    const now = this.d.clock.now();
    const found = await this.d.repos.evidence.ofLearner(tenantId, learnerId);
    for (const c of found) {
      await removeForGood(this.d, { ...c, tenantId }, now, 'evidence.erased');
    }
    await this.d.uow.run(async (tx) => {
      // A signed upload URL's ticket keeps the file name it was issued for.
      const tickets = await tx.uploadTickets.removeOfLearner(tenantId, learnerId);
      if (found.length || tickets) await scheduleScrub(tx.jobs, this.d.clock.now());
    });
    return found.length;
  }
}
