import type { LearnerName } from '@fundi/application/learners';
import type { SessionContext } from '@fundi/application/staff';
import type { Scope } from '@fundi/domain';
import type { Context } from 'koa';
import type { Answer } from '../dashboard/dashboard-deps.js';
import type { Html } from '../dashboard/html.js';

/** The learners a bulk action was asked for: their ids in the order posted, their names, and a list of them. */
export interface ChosenLearners {
  ids: string[];
  names: Map<string, LearnerName>;
  list: Html;
}

/** An action on a selection of the learners list (docs/dashboard.md, "Shared pages"). */
export interface BulkAction {
  /** The `action` its button posts, and the button's words; a `secondary` button is styled as a second choice. */
  value: string;
  label: string;
  secondary?: boolean;
  /** The scope a user needs to see its button and take it. */
  scope: Scope;
  /** What its button leads to, for the learners chosen: its own form, or where its work is followed. */
  start(ctx: Context, s: SessionContext, chosen: ChosenLearners): Promise<Answer>;
}

declare module '../dashboard/dashboard-deps.js' {
  interface PageSlots {
    /** The actions on a selection of the learners list, each a capability's, with its own posts. */
    learnerBulk: { at: null; shows: BulkAction };
  }
}
