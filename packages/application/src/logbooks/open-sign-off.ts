import type { LogbookEntrySnapshot } from '@fundi/domain/logbooks';
import type { LogbookDeps } from './logbook-deps.js';
import { contentHash, covered, refused, signOffLink, type SignOffRequest } from './sign-off-link.js';

/** The supervisor's sign-off page, opened by the link without an account: every entry it signs, as it will be signed. */
export class OpenSignOff {
  constructor(private readonly d: LogbookDeps) {}

  async execute(token: string): Promise<SignOffRequest> {
    const l = signOffLink(this.d, token);
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
}
