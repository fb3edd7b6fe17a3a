import type { OfferedHooks } from '@fundi/application';
import { ImportKinds } from '@fundi/application/imports';
import type { EventDocs } from '../openapi/event-doc.js';
import { Timestamp, z } from '../schemas/common.js';

/**
 * The `data` of each event exactly as its producer (packages/application) writes it, built from the response
 * schemas so a field is described once. The objects are closed; the webhook conformance tests parse real deliveries
 * with them, so a producer that adds or drops a field fails them until this file follows.
 */
export const importCompletedData = (hooks: OfferedHooks) =>
  z
    .object({
      importId: z.string(),
      type: z.enum(typesOf(new ImportKinds(hooks.importKinds))),
      fileName: z.string(),
      totalRows: z.number().int(),
      importedRows: z.number().int(),
      invalidRows: z.number().int(),
      errorCount: z.number().int(),
      completedAt: Timestamp,
    })
    .strict()
    .openapi('ImportCompletedData');

/** The imports capability's events (docs/api.md, "Events and webhooks"). */
export const importEvents = {
  'import.completed': {
    summary: 'A confirmed CSV import has written its valid rows; carries the counts',
    description: 'Each row written raised its own event too (learner.created, assessment.recorded, ...).',
    data: importCompletedData,
  },
} satisfies EventDocs;

/** The offered kinds' types, as `z.enum` takes them (a non-empty list). */
function typesOf(kinds: ImportKinds): [string, ...string[]] {
  const [first, ...rest] = kinds.types;
  if (first === undefined) throw new Error('No capability offers an import kind');
  return [first, ...rest];
}
