import type { DashboardDeps, PageRoutes, PageSection, SlotOf } from '../dashboard/dashboard-deps.js';
import { refusal } from '../dashboard/forms/refusal.js';
import { learnerRecord } from '../learners/learner-record.js';
import { requireScope } from '../dashboard/web.js';

/** Evidence files up to the API's limit. */
const EVIDENCE_MAX_BYTES = 100 * 1024 * 1024;

/**
 * The learner's record's upload form: one file per post (app.js sends each with a progress bar); a refusal is shown
 * in words on the learner's page, with nothing written.
 */
export function evidenceRecordPages(r: PageRoutes, d: DashboardDeps): void {
  r.upload(
    '/dashboard/learners/:id/evidence',
    { field: 'file', maxBytes: EVIDENCE_MAX_BYTES },
    async (ctx, s, fields, file) => {
      const id = ctx.params.id!;
      try {
        requireScope(s, 'evidence:write');
      } catch (e) {
        file.stream.resume();
        throw e;
      }
      try {
        await d.evidence.uploads.upload(
          s.actor,
          { learnerId: id, moduleId: fields.moduleId, evidenceType: fields.evidenceType },
          file,
          ctx.ip,
        );
      } catch (e) {
        file.stream.resume();
        ctx.status = 400;
        return learnerRecord(d, s, id, { text: refusal(e), error: true });
      }
      return { redirect: `/dashboard/learners/${id}?done=uploaded` };
    },
  );
}

/** What the learner's record says after an upload without app.js (`?done=uploaded`). */
export const evidenceUploaded: PageSection<SlotOf<'learnerRecordDone'>> = {
  order: 10,
  async render(_d, _s, at) {
    return at.done === 'uploaded' ? 'The evidence is uploaded.' : null;
  },
};
