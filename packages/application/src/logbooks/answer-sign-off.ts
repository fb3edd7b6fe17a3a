import { DomainError } from '@fundi/domain';
import { LogbookEntry, type LogbookEntrySnapshot } from '@fundi/domain/logbooks';
import { systemActor } from '../common/actor.js';
import { recordChange } from '../common/record-change.js';
import { eventData } from './logbook-event-data.js';
import { LOGBOOK_EVENTS, type LogbookDeps } from './logbook-deps.js';
import { contentHash, covered, refused, signOffLink } from './sign-off-link.js';

/** The supervisor's answer on the sign-off page, by the link without an account (docs/api.md, "Logbooks"). */
export class AnswerSignOff {
  constructor(private readonly d: LogbookDeps) {}

  /**
   * The supervisor confirms or queries (a comment required) every entry the page showed, together: `hashes` must
   * be exactly what those entries hash to now, in the page's order. Each entry keeps its own record (who, when,
   * address, its hash) and event (`logbook.signed`, `logbook.queried`); signed entries are frozen.
   */
  async execute(
    token: string,
    a: { outcome: 'confirmed' | 'queried'; comment: string | null; hashes: readonly string[]; ip: string },
  ): Promise<LogbookEntrySnapshot[]> {
    const l = signOffLink(this.d, token);
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
