import type { PlatformRepos } from '@fundi/domain';
import type { LearnerRepos } from '@fundi/domain/learners';
import type { LogbookRepos } from '@fundi/domain/logbooks';
import type { TrainingRepos } from '@fundi/domain/training';
import type { CoreDeps } from '../common/ports.js';
import type { UrlSigner } from '../common/url-signer.js';

export type LogbookDeps = CoreDeps<LogbookRepos & LearnerRepos & TrainingRepos & PlatformRepos> & {
  signer: UrlSigner;
};

/** The purpose sign-off links are signed under (the notifications that send them sign with the same key). */
export const SIGN_OFF_PURPOSE = 'logbook-sign-off';
/** A sign-off link works this long after the entry was submitted. */
export const SIGN_OFF_DAYS = 14;

export const LOGBOOK_EVENTS = {
  submitted: 'logbook.submitted',
  signed: 'logbook.signed',
  queried: 'logbook.queried',
} as const;

/**
 * The sign-off link's token for a sign-off request as submitted: the tenant, the request (`lbs_...`; `id` may also
 * be one entry's, as links sent before requests covered several entries were), when it was submitted (so a link of
 * an earlier submission no longer works) and until when it works, signed.
 */
export function signOffToken(
  signer: UrlSigner,
  e: { tenantId: string; id: string; submittedAt: string | null },
): string {
  const until = Date.parse(e.submittedAt ?? '') + SIGN_OFF_DAYS * 86_400_000;
  return signer.sign(`${e.tenantId}|${e.id}|${e.submittedAt}|${until}`, SIGN_OFF_PURPOSE);
}
