import type { ExportSnapshot, ReadinessReport } from '@fundi/domain/exports';
import { systemActor } from '../common/actor.js';
import { recordChange } from '../common/record-change.js';
import { enqueueJob } from '../jobs/job-definition.js';
import { erasureJobType, scheduleScrub, type ErasedLearner } from '../learners/learner-erasure.js';
import type { ExportPorts } from './export-ports.js';

/** The exports' part of an erasure (queued by the `learner.erased` event). */
export const ERASE_EXPORT_COPIES = erasureJobType('exports.erase_learner');

/** How long the job waits before looking again at exports that were being written. */
export const RUNNING_EXPORT_RECHECK_MS = 10_000;
const PAGE = 100;

/** The report without the learner's identifiers (their findings stay, so the counts still add up). */
function withoutLearner(r: ReadinessReport | null, learnerId: string): ReadinessReport | null {
  if (!r?.findings.some((f) => f.learnerId === learnerId)) return r;
  return {
    ...r,
    findings: r.findings.map((f) => (f.learnerId === learnerId ? { ...f, idNumber: null, alternateId: null } : f)),
  };
}

/**
 * An erased learner's copies in exports (docs/api.md, "Erasure"). Any export of the tenant made before the erasure
 * may hold the learner (every type carries learners' names), so each file still kept is purged: the record stays,
 * with `purgedAt` and the reason `learner_erased`, and downloads answer as for an expired file. The learner's
 * findings in readiness reports lose their ID numbers. An export still being written is waited for: the job comes
 * back every 10 seconds until it has finished, then purges its file. An export still queued reads the learners
 * after the erasure and is left alone.
 */
export class PurgeExportsOfErasedLearner {
  constructor(private readonly d: Pick<ExportPorts, 'repos' | 'uow' | 'clock' | 'files'>) {}

  async execute(p: ErasedLearner): Promise<{ purged: number; running: number }> {
    let after: string | null = null;
    let purged = 0;
    let running = 0;
    for (;;) {
      const page = await this.d.repos.exports.madeBefore(p.tenantId, p.erasedAt, after, PAGE);
      for (const e of page) {
        if (e.status === 'processing') running++;
        else if (await this.purge(e, p.learnerId)) purged++;
      }
      if (page.length < PAGE) break;
      after = page.at(-1)!.id;
    }
    if (running > 0) {
      const now = this.d.clock.now();
      await this.d.uow.run((tx) =>
        enqueueJob(tx.jobs, ERASE_EXPORT_COPIES, p, {
          now,
          dueAt: new Date(now.getTime() + RUNNING_EXPORT_RECHECK_MS),
          key: `${ERASE_EXPORT_COPIES.kind}:${p.learnerId}@${now.toISOString()}`,
        }),
      );
    }
    return { purged, running };
  }

  /** True when the export's file was purged. */
  private async purge(e: ExportSnapshot, learnerId: string): Promise<boolean> {
    const readiness = withoutLearner(e.readiness, learnerId);
    const file = e.status === 'ready' && e.purgedAt === null;
    if (!file && readiness === e.readiness) return false;
    if (file && e.storageKey) await this.d.files.remove(e.storageKey);
    const now = this.d.clock.now();
    await this.d.uow.run(async (tx) => {
      const purge = file ? { purgedAt: now.toISOString(), purgeReason: 'learner_erased' as const } : {};
      await tx.exports.update({ ...e, readiness, ...purge });
      if (file)
        await recordChange(tx, systemActor(e.tenantId), now, {
          action: 'export.purged',
          resourceType: 'export',
          resourceId: e.id,
          details: { reason: 'learner_erased' },
        });
      // The report's old version held ID numbers: the store's files are scrubbed of it.
      if (readiness !== e.readiness) await scheduleScrub(tx.jobs, now);
    });
    return file;
  }
}
