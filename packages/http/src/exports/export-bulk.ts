import type { PageSection, SlotOf } from '../dashboard/dashboard-deps.js';

/** The learners list's bulk action that exports the selection: the export starts, and its page follows it. */
export const bulkExport: PageSection<SlotOf<'learnerBulk'>> = {
  order: 30,
  async render(d) {
    return {
      value: 'export',
      label: 'Export',
      secondary: true,
      scope: 'exports:write',
      async start(ctx, s, { ids }) {
        const made = await d.exports.request.execute(
          s.actor,
          { type: 'learners', filters: { learnerIds: ids } },
          `${ctx.protocol}://${ctx.host}`,
        );
        return { redirect: `/dashboard/exports?started=${made.id}` };
      },
    };
  },
};
