import type { Html } from '../html.js';

/** What the overview hands each of its sections. */
export interface OverviewAt {
  /**
   * A read shared by the sections of one view of the overview, made once under its key (the grouped enrolment
   * counts serve a tile and the completion chart).
   */
  once<T>(key: string, load: () => Promise<T>): Promise<T>;
}

/** A figure on the overview's tiles; one whose value is null (the role may not read it) is not shown. */
export interface Tile {
  label: string;
  value: string | number | null;
  href?: string;
}

declare module '../dashboard-deps.js' {
  interface PageSlots {
    /** What a role finds first on the overview (docs/dashboard.md, "Shared pages"): sections for one `role` each. */
    overviewLanding: { at: OverviewAt; shows: Html };
    /** The overview's figures, each capability's in a row of tiles. */
    overviewTiles: { at: OverviewAt; shows: readonly Tile[] };
    /** The overview below its tiles: what needs attention (learners at risk, deadlines, QCTO readiness). */
    overview: { at: OverviewAt; shows: Html };
    /** The overview's picture of progress, at its end (completion per programme, the evidence backlog). */
    overviewProgress: { at: OverviewAt; shows: Html };
    /**
     * Activity since an instant that keeps an open enrolment off the overview's idle list (evidence uploaded): its
     * name in "no assessment or ..." and the enrolments that had it. Data, not markup.
     */
    enrolmentActivity: { at: { since: string }; shows: { label: string; enrolmentIds: readonly string[] } };
  }
}
