import type { EnrolmentView } from '@fundi/application/training';
import type { Html } from '../../dashboard/html.js';

/** One module of the learner's programmes as the home page shows it. */
export interface HomeModuleAt {
  enrolment: EnrolmentView;
  module: EnrolmentView['progress']['modules'][number];
  /** The enrolment is still open (enrolled, in progress or suspended): where a section offers its forms. */
  open: boolean;
}

declare module '../portal-deps.js' {
  interface PortalSlots {
    /**
     * Under each module of the learner's programmes on the home page (docs/dashboard.md, "Learner portal"): a
     * section loads what it shows once per view, beside the programmes, and gives back what it shows under each
     * module (the evidence of the module and its upload form).
     */
    homeModule: { at: Record<string, never>; shows: (m: HomeModuleAt) => Html };
    /** What the home page says after a section's form succeeded (its query, `?uploaded=1`): the words, or null. */
    homeNotice: { at: { query: Readonly<Record<string, string | string[] | undefined>> }; shows: string };
  }
}
