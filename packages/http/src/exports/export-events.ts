import type { OfferedHooks } from '@fundi/application';
import type { EventDocs } from '../openapi/event-doc.js';
import { Timestamp, z } from '../schemas/common.js';
import { exportTypeNames } from './export-schemas.js';

/**
 * The `data` of each event exactly as its producer (packages/application) writes it, built from the response
 * schemas so a field is described once. The objects are closed; the webhook conformance tests parse real deliveries
 * with them, so a producer that adds or drops a field fails them until this file follows.
 */
export const exportReadyData = (hooks: OfferedHooks) =>
  z
    .object({
      exportId: z.string(),
      type: z.enum(exportTypeNames(hooks.exportTypes.flat())),
      format: z.enum(['csv', 'zip', 'txt']),
      fileName: z.string(),
      rowCount: z.number().int(),
      size: z.number().int(),
      downloadUrl: z.string().openapi({
        description:
          'Signed and absolute (under FUNDI_PUBLIC_URL, else the origin the export was requested at); lives 3600 s; GET /exports/{id}/download gives a fresh one',
      }),
      expiresAt: Timestamp.openapi({ description: 'When the download URL expires' }),
    })
    .strict()
    .openapi('ExportReadyData');

/** The exports capability's events (docs/api.md, "Events and webhooks"). */
export const exportEvents = {
  'export.ready': {
    summary: 'An export is generated; carries a signed download URL',
    description: 'Written when the worker finishes an export (docs/api.md, "Exports").',
    data: exportReadyData,
  },
  'export.completed': {
    summary: 'Second-list name of export.ready, same moment and data',
    data: exportReadyData,
  },
} satisfies EventDocs;
