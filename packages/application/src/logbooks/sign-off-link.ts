import { createHash } from 'node:crypto';
import { DomainError } from '@fundi/domain';
import { logbookContent, type LogbookEntrySnapshot, type LogbookRepos } from '@fundi/domain/logbooks';
import { SIGN_OFF_PURPOSE, type LogbookDeps } from './logbook-deps.js';

export const refused = () =>
  DomainError.forbidden(
    'This sign-off link is not valid: it was altered, has expired, or the entries were answered or changed since.',
    'sign_off_refused',
  );

/** One entry as the supervisor's page shows it, with the hash of exactly that. */
export interface SignOffItem {
  entry: LogbookEntrySnapshot;
  moduleName: string;
  /** SHA-256 of what is shown (`logbookContent`), recorded with the answer. */
  hash: string;
}

/** What the supervisor's page shows: every entry the link covers, exactly as it will be signed, and for whom. */
export interface SignOffRequest {
  items: SignOffItem[];
  learnerName: string;
}

export const contentHash = (e: LogbookEntrySnapshot) => createHash('sha256').update(logbookContent(e)).digest('hex');

export interface SignOffLink {
  tenantId: string;
  /** A sign-off request (`lbs_...`), or one entry (`lbe_...`, links sent before requests covered several). */
  id: string;
  submittedAt: string;
}

/** The entries the link covers now: those still submitted in the request (or the one entry) it names. */
export async function covered(repos: LogbookRepos, l: SignOffLink): Promise<LogbookEntrySnapshot[]> {
  const all = l.id.startsWith('lbs_')
    ? await repos.logbookEntries.listBySubmission(l.tenantId, l.id)
    : [await repos.logbookEntries.findById(l.tenantId, l.id)].filter((e) => e !== null);
  return all.filter((e) => e.status === 'submitted' && e.submittedAt === l.submittedAt);
}

/**
 * The sign-off link a supervisor holds (docs/api.md, "Logbooks"): it names one sign-off request (the entries of a
 * learner submitted together to one supervisor) and works while they wait for an answer and for 14 days at most.
 */
export function signOffLink(d: Pick<LogbookDeps, 'signer' | 'clock'>, token: string): SignOffLink {
  const payload = d.signer.verify(token, SIGN_OFF_PURPOSE);
  const [tenantId, id, submittedAt, until] = payload?.split('|') ?? [];
  if (!tenantId || !id || !submittedAt || !(Number(until) > d.clock.now().getTime())) throw refused();
  return { tenantId, id, submittedAt };
}
