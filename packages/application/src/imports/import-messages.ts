import type { LearnerSnapshot } from '@fundi/domain/learners';
import { IMPORT_HISTORY_DAYS, type ImportMessages, type ImportNotify } from '@fundi/domain/imports';
import type { OfferedHooks } from '../common/hooks.js';

/** A message a row's write would lead to: the template and the learner it goes to (as they will be then). */
export interface MessageDue {
  /** The key of the template that tells of the record (`welcome`, `assessment_result`). */
  template: string;
  learner: Pick<LearnerSnapshot, 'email' | 'mobile' | 'emailOptOut' | 'whatsappConsent'>;
}

/** The first day an imported assessment may be dated and still message its learner (older ones are history). */
export const historyBefore = (now: Date) =>
  new Date(now.getTime() - IMPORT_HISTORY_DAYS * 86_400_000).toISOString().slice(0, 10);

/** The import whose dry run counts: its tenant and whether its rows message learners. */
export interface DryRun {
  tenantId: string;
  notify: ImportNotify;
}

/**
 * What a confirm would send (docs/api.md, "Imports", "Messages a confirm will send"): the capability that sends
 * messages counts, per template and channel, those of `due` it would send for the import's tenant as `notify` says.
 * `repos` are the service's repositories (as the unit of work hands them out), `hooks` every capability's offers.
 * The imports capability names no capability that sends: with no offer, a confirm sends nothing and the dry run
 * counts no message (docs/architecture.md, "A capability's anatomy").
 */
export interface ConfirmMessages<R extends object = object> {
  count(repos: R, hooks: OfferedHooks, run: DryRun, due: readonly MessageDue[]): Promise<ImportMessages>;
}

declare module '../common/hooks.js' {
  interface Hooks {
    /** Counts what an import's confirm would send, for its dry run. */
    importMessages: ConfirmMessages;
  }
}

/** The messages of one dry run, counted batch by batch by every offer of `importMessages`, per template. */
export class MessageTally {
  private readonly counts = new Map<string, { email: number; whatsapp: number }>();

  constructor(
    private readonly d: { repos: object; hooks?: OfferedHooks },
    private readonly run: DryRun,
  ) {}

  async add(due: readonly MessageDue[]): Promise<void> {
    const hooks = this.d.hooks;
    if (this.run.notify === 'none' || !due.length || !hooks) return;
    for (const offer of hooks.importMessages ?? [])
      for (const t of (await offer.count(this.d.repos, hooks, this.run, due)).templates) {
        let c = this.counts.get(t.template);
        if (!c) this.counts.set(t.template, (c = { email: 0, whatsapp: 0 }));
        c.email += t.email;
        c.whatsapp += t.whatsapp;
      }
  }

  result(): ImportMessages {
    return countsOf(this.counts);
  }
}

/** Counts per template, with their totals per channel. */
export function countsOf(counts: ReadonlyMap<string, { email: number; whatsapp: number }>): ImportMessages {
  const templates = [...counts].map(([template, c]) => ({ template, ...c }));
  return {
    email: templates.reduce((n, t) => n + t.email, 0),
    whatsapp: templates.reduce((n, t) => n + t.whatsapp, 0),
    templates,
  };
}
