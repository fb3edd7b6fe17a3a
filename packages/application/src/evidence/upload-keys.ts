import { DomainError } from '@fundi/domain';
import type { EvidenceRepos } from '@fundi/domain/evidence';
import type { CoreDeps } from '../common/ports.js';
import type { RetentionTask } from '../retention/retention-policy.js';

/** A key is kept this long: a retry comes within seconds or minutes, a day is plenty. */
const KEEP_MS = 86_400_000;
/** A form's upload key: what `newFormToken` makes, or a browser's UUID. */
const KEY = /^[\w-]{16,64}$/;

/** What an upload handler does with an attempt. */
export type UploadAttempt = { kind: 'run'; key: string | null } | { kind: 'done'; evidenceId: string };

type UploadKeyDeps = Pick<CoreDeps<Pick<EvidenceRepos, 'uploadKeys'>>, 'repos' | 'clock'>;

/**
 * Uploads by their form's key (docs/dashboard.md, "Learner portal"): the first attempt with a key claims it and
 * stores the file; an attempt with a key already done stores nothing and answers as the first did; one with a key
 * whose attempt is still running is told to try again shortly (503), and a failed attempt gives its key back. So a
 * retried upload, after an answer lost on a flaky connection, never makes a second record or version.
 */
export class UploadKeys {
  constructor(private readonly d: UploadKeyDeps) {}

  async begin(tenantId: string, learnerId: string, key: string | undefined): Promise<UploadAttempt> {
    // A form without a key (a page from before keys) uploads as it always did.
    if (!key) return { kind: 'run', key: null };
    if (!KEY.test(key)) throw DomainError.invalid('uploadKey', 'is not a form’s upload key: reload the page');
    const now = this.d.clock.now();
    const claimed = await this.d.repos.uploadKeys.claim({
      tenantId,
      key,
      learnerId,
      evidenceId: null,
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + KEEP_MS).toISOString(),
    });
    if (claimed) return { kind: 'run', key };
    const u = await this.d.repos.uploadKeys.find(tenantId, key);
    if (!u || u.learnerId !== learnerId)
      throw DomainError.invalid('uploadKey', 'is not this form’s: reload the page and try again');
    if (u.evidenceId) return { kind: 'done', evidenceId: u.evidenceId };
    throw new DomainError('unavailable', 'upload_in_progress', 'This file is still being uploaded: try again shortly.');
  }

  done(tenantId: string, key: string, evidenceId: string): Promise<void> {
    return this.d.repos.uploadKeys.complete(tenantId, key, evidenceId);
  }

  failed(tenantId: string, key: string): Promise<void> {
    return this.d.repos.uploadKeys.release(tenantId, key);
  }
}

/** Upload keys once expired: pruned with the sessions they were made in, at their end. */
export function uploadKeyRetention(d: Pick<CoreDeps<Pick<EvidenceRepos, 'uploadKeys'>>, 'repos'>): RetentionTask[] {
  return [
    {
      kind: 'dashboardSessions',
      step: 'uploadKeys',
      prune: (before, limit) => d.repos.uploadKeys.deleteExpired(before.toISOString(), limit),
    },
  ];
}
