import type { ImportSnapshot } from '@fundi/domain/imports';
import { enqueueJob } from '../jobs/job-definition.js';
import { erasureJobType, type ErasedLearner } from '../learners/learner-erasure.js';
import type { ImportDeps } from './import-ports.js';

/** The imports' part of an erasure (queued by the `learner.erased` event). */
export const ERASE_IMPORT_COPIES = erasureJobType('imports.erase_learner');

/** How long the job waits before looking again at imports that were running. */
export const RUNNING_IMPORT_RECHECK_MS = 10_000;
const PAGE = 200;

/** The row error a dry run gets when its file goes with an erasure. */
export const ERASED_FILE_ERROR = {
  row: 1,
  field: 'file',
  error: 'the file was removed with a learner erased after it was checked (POPIA); upload it again',
};

/**
 * An erased learner's copies in imports (docs/api.md, "Erasure"). An uploaded file is kept encrypted while its
 * import needs it; which file holds the learner cannot be told without reading them all, so the files of every
 * import of the tenant made before the erasure go. A finished import loses a file it no longer needs; a dry run
 * awaiting confirm (`validated`) becomes `failed`, saying why, since confirming it could write the learner again.
 * The values and learners its errors repeat go too. An import still running is waited for: the job comes back every 10 seconds until it has finished.
 */
export class RemoveImportFilesOfErasedLearner {
  constructor(private readonly d: Pick<ImportDeps, 'repos' | 'uow' | 'clock' | 'files'>) {}

  async execute(p: ErasedLearner): Promise<{ removed: number; running: number }> {
    let after: string | null = null;
    let removed = 0;
    let running = 0;
    for (;;) {
      const page = await this.d.repos.imports.list(p.tenantId, {}, { kind: 'cursor', after, limit: PAGE });
      const before = page.items.filter((i) => i.createdAt <= p.erasedAt);
      for (const i of before) {
        if (i.status !== 'validating' && i.status !== 'importing' && (await this.remove(i))) removed++;
        else running++;
      }
      // Ids follow creation time: past the erasure, nothing older follows.
      if (!page.hasMore || before.length < page.items.length) break;
      after = page.items.at(-1)!.id;
    }
    if (running > 0) {
      const now = this.d.clock.now();
      await this.d.uow.run((tx) =>
        enqueueJob(tx.jobs, ERASE_IMPORT_COPIES, p, {
          now,
          dueAt: new Date(now.getTime() + RUNNING_IMPORT_RECHECK_MS),
          key: `${ERASE_IMPORT_COPIES.kind}:${p.learnerId}@${now.toISOString()}`,
        }),
      );
    }
    return { removed, running };
  }

  /** Removes the import's file (idempotent); a dry run awaiting confirm fails first. False when it is running now. */
  private async remove(i: ImportSnapshot): Promise<boolean> {
    if (i.status === 'validated') {
      const failed = await this.d.uow.run(async (tx) => {
        const moved = await tx.imports.transition(i.tenantId, i.id, 'validated', 'failed', {
          errorCount: i.errorCount + 1,
          validRows: 0,
          completedAt: this.d.clock.now().toISOString(),
        });
        if (moved) await tx.imports.addErrors(i.id, i.errorCount, [ERASED_FILE_ERROR]);
        return moved;
      });
      // Confirmed meanwhile: it is running now, and the next look finds it.
      if (!failed) return false;
    }
    await this.d.files.remove(i.fileKey);
    // The errors repeat cells and the learner a row names: those go with the file; the errors' text stays.
    await this.d.repos.imports.forgetErrorDetails([i.id]);
    return true;
  }
}
