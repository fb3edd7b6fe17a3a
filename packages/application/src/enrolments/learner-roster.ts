import type { Page, PlatformRepos } from '@fundi/domain';
import type { EnrolledFilter, LearnerRepos } from '@fundi/domain/learners';
import type { EnrolmentStatus, EnrolmentSummary, TrainingRepos } from '@fundi/domain/training';
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
    const enrolled: EnrolledFilter = {
      ...(programmeCode ? { programmeCode } : {}),
      ...(q.status ? { status: q.status } : {}),
      ...(q.startFrom ? { startFrom: q.startFrom } : {}),
      ...(q.startTo ? { startTo: q.startTo } : {}),
    };
    const byEnrolment = Object.keys(enrolled).length > 0;
    // Filters, sort and page are one read of the learners (their enrolments' conditions and sort keys included),
    // then one read of the listed learners' enrolments.
    const listed = await learners.list(
      tenantId,
      {
        ...(q.search ? { search: q.search } : {}),
        ...(q.employer ? { employer: q.employer } : {}),
        ...(byEnrolment ? { enrolled } : {}),
      },
      { kind: 'offset', ...page },
      { by: q.sort, descending: q.descending },
    );
    const shown = listed.items.map((l) => l.id);
    const theirs = shown.length ? await enrolments.summaries(tenantId, enrolled, shown) : [];
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
