import type {
  EnrolmentFilter,
  EnrolmentStatus,
  EnrolmentSummary,
  LearnerFilter,
  LearnerRepos,
  LearnerSnapshot,
  Page,
  PlatformRepos,
  TrainingRepos,
} from '@fundi/domain';
import type { Actor } from '../common/actor.js';
import type { CoreDeps } from '../common/ports.js';
import { checkRanges } from '../common/ranges.js';
import { learnerView, type LearnerView } from '../learners/learner-view.js';

/** The columns a learner list sorts by: the learner's own, or their enrolments' (programme code, status, start). */
export type RosterSort = 'name' | 'idNumber' | 'programme' | 'status' | 'start';

export interface RosterQuery {
  /** The learner list's search (`LearnerFilter.search`). */
  search?: string;
  /** Part of the employer's name, any case. */
  employer?: string;
  /** A programme code in any case; learners with an enrolment that matches every enrolment filter are listed. */
  programmeCode?: string;
  status?: EnrolmentStatus;
  /** Inclusive bounds on an enrolment's start date, YYYY-MM-DD. */
  startFrom?: string;
  startTo?: string;
  sort: RosterSort;
  descending: boolean;
}

/** One learner of the list with their enrolments (those matching the enrolment filters when some are given). */
export interface RosterRow {
  learner: LearnerView;
  enrolments: EnrolmentSummary[];
}

const KEY: Record<'programme' | 'status' | 'start', (e: EnrolmentSummary) => string> = {
  programme: (e) => e.programmeCode,
  status: (e) => e.status,
  start: (e) => e.startDate,
};

/**
 * Learners filtered by their own fields and by their enrolments (programme, status, start period), sorted by a
 * column of either, one row per learner, offset pages stable under the sort (ties by id). A learner sorted by an
 * enrolment field takes their first value of it in the sort's direction; learners without one come last.
 */
export class ListLearnerRoster {
  constructor(private readonly deps: Pick<CoreDeps<TrainingRepos & LearnerRepos & PlatformRepos>, 'repos'>) {}

  async execute(actor: Actor, q: RosterQuery, page: { offset: number; limit: number }): Promise<Page<RosterRow>> {
    checkRanges(q, [['startFrom', 'startTo']]);
    const { learners, enrolments } = this.deps.repos;
    const tenantId = actor.tenantId;
    const programmeCode = q.programmeCode ? await this.programmeCode(tenantId, q.programmeCode) : undefined;
    if (programmeCode === null) return { items: [], total: 0, hasMore: false };
    const filter: EnrolmentFilter = {
      ...(programmeCode ? { programmeCode } : {}),
      ...(q.status ? { status: q.status } : {}),
      ...(q.startFrom ? { startFrom: q.startFrom } : {}),
      ...(q.startTo ? { startTo: q.startTo } : {}),
    };
    const byEnrolment = Object.keys(filter).length > 0;
    const byEnrolmentField = q.sort === 'programme' || q.sort === 'status' || q.sort === 'start';
    const found = byEnrolment || byEnrolmentField ? await enrolments.summaries(tenantId, filter) : null;
    const learnerFilter: LearnerFilter = {
      ...(q.search ? { search: q.search } : {}),
      ...(q.employer ? { employer: q.employer } : {}),
      ...(byEnrolment && found ? { ids: [...new Set(found.map((e) => e.learnerId))] } : {}),
    };
    if (learnerFilter.ids?.length === 0) return { items: [], total: 0, hasMore: false };

    let listed: Page<LearnerSnapshot>;
    if (q.sort === 'name' || q.sort === 'idNumber') {
      listed = await learners.list(
        tenantId,
        learnerFilter,
        { kind: 'offset', ...page },
        {
          by: q.sort,
          descending: q.descending,
        },
      );
    } else {
      const key = KEY[q.sort];
      const first = new Map<string, string>();
      for (const e of found ?? []) {
        const k = key(e);
        const had = first.get(e.learnerId);
        if (had === undefined || (q.descending ? k > had : k < had)) first.set(e.learnerId, k);
      }
      const sign = q.descending ? -1 : 1;
      const ids = (await learners.matchingIds(tenantId, learnerFilter)).sort((a, b) => {
        const ka = first.get(a);
        const kb = first.get(b);
        if (ka !== kb) return ka === undefined ? 1 : kb === undefined ? -1 : ka < kb ? -sign : sign;
        return a < b ? -1 : a > b ? 1 : 0;
      });
      const pick = ids.slice(page.offset, page.offset + page.limit);
      const byId = new Map((await learners.findByIds(tenantId, pick)).map((l) => [l.id, l]));
      listed = {
        items: pick.flatMap((id) => byId.get(id) ?? []),
        total: ids.length,
        hasMore: page.offset + page.limit < ids.length,
      };
    }
    const shown = new Set(listed.items.map((l) => l.id));
    const theirs = found
      ? found.filter((e) => shown.has(e.learnerId))
      : await enrolments.summaries(tenantId, {}, [...shown]);
    return {
      ...listed,
      items: listed.items.map((l) => ({
        learner: learnerView(l),
        enrolments: theirs.filter((e) => e.learnerId === l.id),
      })),
    };
  }

  /** The tenant's code for `code` in any case ("elec-01" is "ELEC-01"), or null when no programme has it. */
  private async programmeCode(tenantId: string, code: string): Promise<string | null> {
    const exact = await this.deps.repos.programmes.findByCode(tenantId, code);
    if (exact) return exact.code;
    const wanted = code.toLowerCase();
    let after: string | null = null;
    for (;;) {
      const page = await this.deps.repos.programmes.list(tenantId, {}, { kind: 'cursor', after, limit: 500 });
      const hit = page.items.find((p) => p.code.toLowerCase() === wanted);
      if (hit) return hit.code;
      if (!page.hasMore || page.items.length === 0) return null;
      after = page.items[page.items.length - 1]!.id;
    }
  }
}
