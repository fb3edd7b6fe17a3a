import type { EvidenceUseCases } from '@fundi/application/evidence';
import { pageInOrder } from '@fundi/domain';
import { IdParams } from '../schemas/common.js';
import { EvidenceListQuery, EvidenceOut, EvidenceVersionOut, ReviewIn, UsageOut } from './evidence-schemas.js';
import { dayEnd, dayStart } from '../routes/range.js';
import { route } from '../routes/route.js';

const tag = 'Evidence';

/**
 * The evidence records (docs/api.md, "Evidence"): listing, reading, review, deletion and restore, the versions, and
 * storage usage. Keyed by operation id; evidence-routes.ts lists them in their order.
 */
export function evidenceRecordRoutes({
  listEvidence,
  getEvidence,
  reviewEvidence,
  deleteEvidence,
  restoreEvidence,
  evidenceVersions,
  usage,
}: EvidenceUseCases) {
  return {
    listEvidence: route({
      operationId: 'listEvidence',
      summary: 'List evidence',
      tag,
      method: 'get',
      path: '/evidence',
      scope: 'evidence:read',
      query: EvidenceListQuery,
      actors: true,
      list: { item: EvidenceOut },
      success: { status: 200, description: 'A page of evidence (current versions)' },
      handle: ({ actor, query, page }) =>
        listEvidence.execute(actor, { ...query, from: dayStart(query.from), to: dayEnd(query.to) }, page),
    }),
    getEvidence: route({
      operationId: 'getEvidence',
      summary: 'Get evidence',
      tag,
      method: 'get',
      path: '/evidence/{id}',
      scope: 'evidence:read',
      params: IdParams,
      actors: true,
      success: { status: 200, schema: EvidenceOut, description: 'The evidence with its current version' },
      errors: [404],
      handle: ({ actor, params }) => getEvidence.execute(actor, params.id),
    }),
    reviewEvidence: route({
      operationId: 'reviewEvidence',
      summary: 'Review the current version',
      tag,
      method: 'patch',
      path: '/evidence/{id}',
      scope: 'evidence:review',
      description:
        '`submitted` moves to `approved`, `rejected` or `revision_requested` (feedback required); a version is reviewed once (409 after).',
      params: IdParams,
      body: ReviewIn,
      actors: true,
      success: { status: 200, schema: EvidenceOut, description: 'The reviewed evidence' },
      errors: [404, 409],
      handle: ({ actor, params, body }) => reviewEvidence.execute(actor, params.id, body),
    }),
    deleteEvidence: route({
      operationId: 'deleteEvidence',
      summary: 'Delete evidence (restorable for 30 days)',
      tag,
      method: 'delete',
      path: '/evidence/{id}',
      scope: 'evidence:delete',
      params: IdParams,
      success: { status: 204, description: 'Marked for deletion' },
      errors: [404],
      handle: ({ actor, params }) => deleteEvidence.execute(actor, params.id),
    }),
    restoreEvidence: route({
      operationId: 'restoreEvidence',
      summary: 'Restore deleted evidence within 30 days',
      tag,
      method: 'post',
      path: '/evidence/{id}/restore',
      scope: 'evidence:delete',
      params: IdParams,
      actors: true,
      success: { status: 200, schema: EvidenceOut, description: 'The restored evidence' },
      errors: [404, 409],
      handle: ({ actor, params }) => restoreEvidence.execute(actor, params.id),
    }),
    listEvidenceVersions: route({
      operationId: 'listEvidenceVersions',
      summary: 'Every version with its own review',
      tag,
      method: 'get',
      path: '/evidence/{id}/versions',
      scope: 'evidence:read',
      params: IdParams,
      actors: true,
      // Versions have no id: Form A's cursor carries the version number.
      list: { item: EvidenceVersionOut, cursorKey: 'version' },
      success: { status: 200, description: 'A page of versions, oldest first' },
      errors: [404],
      handle: async ({ actor, params, page }) =>
        pageInOrder(await evidenceVersions.execute(actor, params.id), page, (v) => String(v.version)),
    }),
    getUsage: route({
      operationId: 'getUsage',
      summary: 'Storage used against the quota',
      tag: 'Usage',
      method: 'get',
      path: '/usage',
      scope: 'usage:read',
      success: { status: 200, schema: UsageOut, description: 'Storage use' },
      handle: ({ actor }) => usage.usage(actor),
    }),
  };
}
