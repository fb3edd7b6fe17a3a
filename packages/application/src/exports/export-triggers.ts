import type { ExportRepos } from '@fundi/domain/exports';
import { email, staff } from '../common/trigger-templates.js';
import { pick, str, triggers } from '../common/triggers.js';

/**
 * The exports' triggers (the `triggers` hook, docs/architecture.md "A capability's anatomy"): when an export is
 * ready the administrators hear of it, and so does the staff user who asked for it (their report). The export
 * record is read here, for who asked and its file's name.
 */
export const exportTriggers = triggers({
  variables: {
    'export.type': { about: 'what was exported (learners, enrolments, ...)' },
  },
  pages: ['/exports'],
  templates: [
    {
      key: 'report_ready',
      order: 90,
      audience: 'staff',
      trigger: 'a report someone asked for is ready',
      email: email(
        'Your report is ready: {{report.name}}',
        ['Hi {{recipient.firstName}},', 'The report {{report.name}} is ready to download.'],
        'Download the report',
      ),
      whatsapp: null,
      sample: { ...staff, 'report.name': 'Quarterly progress, Q2 2026' },
    },
    {
      key: 'export_complete',
      order: 120,
      audience: 'admin',
      trigger: 'an export finishes',
      email: email(
        'Your {{export.type}} export is ready',
        ['Hi {{recipient.firstName}},', 'The {{export.type}} export you asked for is ready to download.'],
        'Download the export',
      ),
      whatsapp: null,
      sample: { ...staff, 'export.type': 'learners' },
    },
  ],
  sources: [
    {
      event: 'export.ready',
      reads: (e) => pick(e.data, ['exportId', 'type']),
      tell: async (run, p, repos: Pick<ExportRepos, 'exports'>) => {
        const d = p.data;
        const actionUrl = run.dashboardUrl('/exports');
        const told = await run.toStaff('export_complete', ['admin'], { 'export.type': str(d.type), actionUrl });
        // The staff user who asked for it in the dashboard hears that their report is ready.
        const e = await repos.exports.findById(p.tenantId, str(d.exportId));
        if (e)
          told.push(
            ...(await run.toUser('report_ready', e.createdBy, {
              'report.name': `${str(d.type)} export${e.fileName ? ` (${e.fileName})` : ''}`,
              actionUrl,
            })),
          );
        return told;
      },
    },
  ],
});
