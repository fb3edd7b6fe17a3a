import type { StorageDay } from '@fundi/domain/evidence';
import type { Actor } from '../common/actor.js';
import { utcDay } from '../tenants/request-meter.js';
import type { EvidencePorts } from './evidence-ports.js';
import { tenantQuota } from './evidence-quota.js';

export interface UsageView {
  bytesUsed: number;
  quotaBytes: number | null;
  files: number;
  percentUsed: number | null;
  /** Authenticated requests of all the tenant's keys since 00:00 UTC. */
  requestsToday: number;
}

/** A tenant's storage and request use against its quota, and the daily snapshots behind the usage chart. */
export class EvidenceUsage {
  constructor(private readonly d: EvidencePorts) {}

  /** Records today's storage use of every tenant (the daily job); returns how many tenants. */
  async snapshotUsage(): Promise<number> {
    const day = utcDay(this.d.clock.now().getTime());
    const tenants = await this.d.repos.tenants.list();
    for (const t of tenants) {
      const u = await this.d.repos.evidence.usage(t.id);
      await this.d.repos.storageHistory.record(t.id, { day, bytes: u.bytes, files: u.files });
    }
    return tenants.length;
  }

  /**
   * Storage use over the last `days` days, oldest first: the daily snapshots, with today's taken now. Days before
   * the first snapshot are absent (the chart starts where the records do).
   */
  async usageHistory(actor: Actor, days = 30): Promise<{ quotaBytes: number | null; days: StorageDay[] }> {
    const now = this.d.clock.now().getTime();
    const today = utcDay(now);
    const u = await this.d.repos.evidence.usage(actor.tenantId);
    await this.d.repos.storageHistory.record(actor.tenantId, { day: today, bytes: u.bytes, files: u.files });
    const from = utcDay(now - (days - 1) * 86_400_000);
    const { quota } = await tenantQuota(this.d.repos, actor.tenantId);
    return { quotaBytes: quota, days: await this.d.repos.storageHistory.list(actor.tenantId, from) };
  }

  async usage(actor: Actor): Promise<UsageView> {
    const { quota } = await tenantQuota(this.d.repos, actor.tenantId);
    const u = await this.d.repos.evidence.usage(actor.tenantId);
    // This process's counts first; other processes' reach the store within the meter's flush interval.
    await this.d.meter.flush();
    const requestsToday = await this.d.repos.apiKeyUsage.requestsOn(
      actor.tenantId,
      utcDay(this.d.clock.now().getTime()),
    );
    return {
      bytesUsed: u.bytes,
      quotaBytes: quota,
      files: u.files,
      percentUsed: quota ? Math.round((u.bytes / quota) * 10_000) / 100 : null,
      requestsToday,
    };
  }
}
