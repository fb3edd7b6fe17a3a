import { createHash } from 'node:crypto';
import { DomainError } from '@fundi/domain';
import { LogbookEntry, logbookContent, type LogbookEntrySnapshot, type LogbookRepos } from '@fundi/domain/logbooks';
import { systemActor } from '../common/actor.js';
import { recordChange } from '../common/record-change.js';
import { eventData } from './logbook-event-data.js';
import { LOGBOOK_EVENTS, SIGN_OFF_PURPOSE, type LogbookDeps } from './logbook-deps.js';

const refused = () =>
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

interface Link {
  tenantId: string;
  /** A sign-off request (`lbs_...`), or one entry (`lbe_...`, links sent before requests covered several). */
  id: string;
  submittedAt: string;
}

/** The entries the link covers now: those still submitted in the request (or the one entry) it names. */
async function covered(repos: LogbookRepos, l: Link): Promise<LogbookEntrySnapshot[]> {
  const all = l.id.startsWith('lbs_')
    ? await repos.logbookEntries.listBySubmission(l.tenantId, l.id)
    : [await repos.logbookEntries.findById(l.tenantId, l.id)].filter((e) => e !== null);
  return all.filter((e) => e.status === 'submitted' && e.submittedAt === l.submittedAt);
}

/**
 * The supervisor's sign-off by signed, expiring link, without an account (docs/api.md, "Logbooks"): the link names
 * one sign-off request (the entries of a learner submitted together to one supervisor); it works while they wait
 * for an answer and for 14 days at most, and shows every entry it signs.
 */
export class LogbookSignOff {
  constructor(private readonly d: LogbookDeps) {}

  private link(token: string): Link {
    const payload = this.d.signer.verify(token, SIGN_OFF_PURPOSE);
    const [tenantId, id, submittedAt, until] = payload?.split('|') ?? [];
    if (!tenantId || !id || !submittedAt || !(Number(until) > this.d.clock.now().getTime())) throw refused();
    return { tenantId, id, submittedAt };
  }

  async open(token: string): Promise<SignOffRequest> {
    const l = this.link(token);
    const entries = await covered(this.d.repos, l);
    if (!entries.length) throw refused();
    const learner = await this.d.repos.learners.findById(l.tenantId, entries[0]!.learnerId);
    if (!learner) throw refused();
    const enrolments = await Promise.all(
      [...new Set(entries.map((e) => e.enrolmentId))].map((id) => this.d.repos.enrolments.findById(l.tenantId, id)),
    );
    const programmes = await this.d.repos.programmes.findByIds(l.tenantId, [
      ...new Set(enrolments.flatMap((e) => (e ? [e.programmeId] : []))),
    ]);
    const moduleName = (e: LogbookEntrySnapshot) => {
      const p = enrolments.find((x) => x?.id === e.enrolmentId)?.programmeId;
      return programmes.find((x) => x.id === p)?.modules.find((m) => m.code === e.moduleCode)?.name ?? e.moduleCode;
    };
    return {
      items: entries.map((e) => ({ entry: e, moduleName: moduleName(e), hash: contentHash(e) })),
      learnerName: `${learner.firstName} ${learner.lastName}`,
    };
  }

  /**
   * The supervisor confirms or queries (a comment required) every entry the page showed, together: `hashes` must
   * be exactly what those entries hash to now, in the page's order. Each entry keeps its own record (who, when,
   * address, its hash) and event (`logbook.signed`, `logbook.queried`); signed entries are frozen.
   */
  async answer(
    token: string,
    a: { outcome: 'confirmed' | 'queried'; comment: string | null; hashes: readonly string[]; ip: string },
  ): Promise<LogbookEntrySnapshot[]> {
    const l = this.link(token);
    const comment = a.comment?.trim() ? a.comment.trim().slice(0, 2000) : null;
    if (a.outcome === 'queried' && !comment)
      throw DomainError.invalid('comment', 'is required to query entries: say what is wrong');
    const now = this.d.clock.now();
    const actor = systemActor(l.tenantId);
    return this.d.uow.run(async (tx) => {
      const entries = await covered(tx, l);
      const hashes = entries.map(contentHash);
      if (!entries.length || hashes.length !== a.hashes.length || hashes.some((h, i) => h !== a.hashes[i]))
        throw refused();
      const out: LogbookEntrySnapshot[] = [];
      for (const [i, cur] of entries.entries()) {
        const hash = hashes[i]!;
        const next = LogbookEntry.answer(cur, {
          outcome: a.outcome,
          by: cur.supervisor.name,
          at: now.toISOString(),
          ip: a.ip,
          hash,
          comment,
        });
        await tx.logbookEntries.update(next);
        const type = next.status === 'signed' ? LOGBOOK_EVENTS.signed : LOGBOOK_EVENTS.queried;
        await recordChange(tx, actor, now, {
          action: type,
          resourceType: 'logbook_entry',
          resourceId: next.id,
          learnerId: next.learnerId,
          details: { hash, submissionId: next.submissionId },
          events: [{ type, data: eventData(next), subjectId: next.learnerId }],
        });
        out.push(next);
      }
      return out;
    });
  }
}
