import type { ImportRepos } from '@fundi/domain/imports';
import type { CoreDeps } from '../common/ports.js';
import type { FileVault } from '../files/file-vault.js';
import type { RetentionTask } from '../retention/retention-policy.js';

declare module '../retention/retention-policy.js' {
  interface RetentionKinds {
    /** Finished imports, with their files. */
    imports: true;
  }
}

/**
 * Imports that finished (completed or failed) before the cut-off: the uploaded file first, then the record and its
 * row errors in one transaction, so a file is never left behind by a record already gone (a failed removal leaves
 * both for the next run). An import still waiting for its confirm is kept.
 */
export function importRetention(
  d: Pick<CoreDeps<ImportRepos>, 'repos' | 'uow'> & { files: FileVault },
): RetentionTask[] {
  return [
    {
      kind: 'imports',
      async prune(before, limit) {
        const old = await d.repos.imports.finishedBefore(before.toISOString(), limit);
        for (const i of old) await d.files.remove(i.fileKey);
        await d.uow.run((tx) => tx.imports.deleteMany(old.map((i) => i.id)));
        return old.length;
      },
    },
  ];
}
