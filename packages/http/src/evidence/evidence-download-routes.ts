import type { EvidenceUseCases } from '@fundi/application/evidence';
import { IdParams, TokenParams, z } from '../schemas/common.js';
import { BulkDownloadIn, BulkDownloadOut, DownloadGrantOut } from './evidence-schemas.js';
import { route } from '../routes/route.js';
import { absolute } from '../routes/signed-url.js';
import { storedZip } from '../routes/stored-zip.js';

const InlineQuery = z
  .object({
    inline: z
      .enum(['1'])
      .optional()
      .openapi({ description: '1: shown in the browser (PDF and raster images only); otherwise a download' }),
  })
  .strict();
const INLINE_TYPES = new Set(['application/pdf', 'image/png', 'image/jpeg', 'image/gif', 'image/webp']);

const tag = 'Evidence';

/**
 * Evidence downloads (docs/api.md, "Evidence"): signed URLs to one file or to a ZIP of many, and the files served
 * through them. Keyed by operation id; evidence-routes.ts lists them in their order.
 */
export function evidenceDownloadRoutes({ downloadUrl, openDownload, bundleUrl, openBundle }: EvidenceUseCases) {
  return {
    getEvidenceDownloadUrl: route({
      operationId: 'getEvidenceDownloadUrl',
      summary: 'A signed download URL (3600 s)',
      tag,
      method: 'get',
      path: '/evidence/{id}/download',
      scope: 'evidence:read',
      description: 'Issuing the URL and every download through it are written to the audit log.',
      params: IdParams,
      success: { status: 200, schema: DownloadGrantOut, description: 'The URL and what it serves' },
      errors: [404, 409],
      handle: ({ actor, params, ip, origin }) => downloadUrl.execute(actor, params.id, ip).then(absolute(origin)),
    }),
    downloadSignedFile: route({
      operationId: 'downloadSignedFile',
      summary: 'Download through a signed URL',
      tag: 'Files',
      method: 'get',
      path: '/files/evidence/{token}',
      auth: 'none',
      scope: undefined,
      params: TokenParams,
      query: InlineQuery,
      errors: [403, 404],
      success: {
        status: 200,
        file: { contentTypes: ['*/*'], ranges: true },
        description: 'The decrypted file, with the Content-Type sniffed from it at upload',
      },
      handle: async ({ params, query, tenantSlug, ip }) => {
        const f = await openDownload.execute(params.token, tenantSlug, ip);
        // Shown in the page only for types a browser displays without running anything of ours: PDF and raster
        // images (never SVG or HTML); everything else is an attachment whatever is asked.
        const inline = query.inline === '1' && INLINE_TYPES.has(f.contentType);
        return {
          contentType: f.contentType,
          size: f.size,
          filename: f.filename,
          etag: f.etag,
          disposition: inline ? ('inline' as const) : ('attachment' as const),
          open: (r) => f.open(r),
        };
      },
    }),
    bulkDownloadEvidence: route({
      operationId: 'bulkDownloadEvidence',
      summary: 'A signed URL to one ZIP of up to 500 pieces of evidence',
      tag,
      method: 'post',
      path: '/evidence/bulk-download',
      scope: 'evidence:read',
      description:
        "Every id must be evidence of the caller's tenant (404 naming the unknown ones). The ZIP holds each current version as `<learnerId>/<moduleId>/<evidenceId>-v<version>-<filename>`, written while it is sent. Evidence still awaiting its file is 409 `evidence_awaiting_upload` naming it.",
      body: BulkDownloadIn,
      success: {
        status: 200,
        schema: BulkDownloadOut,
        description: 'The URL and what it serves (size: the files before zipping)',
      },
      errors: [404, 409],
      handle: ({ actor, body, ip, origin }) => bundleUrl.execute(actor, body.evidenceIds, ip).then(absolute(origin)),
    }),
    downloadSignedBundle: route({
      operationId: 'downloadSignedBundle',
      summary: 'Download a ZIP of evidence through a signed URL',
      tag: 'Files',
      method: 'get',
      path: '/files/bundles/{token}',
      auth: 'none',
      scope: undefined,
      params: TokenParams,
      errors: [403],
      success: {
        status: 200,
        file: { contentTypes: ['application/zip'] },
        description: 'The ZIP, streamed (no Content-Length)',
      },
      handle: async ({ params, tenantSlug, ip }) => {
        const b = await openBundle.execute(params.token, tenantSlug, ip);
        return { contentType: 'application/zip', filename: b.filename, open: () => storedZip(b.entries) };
      },
    }),
  };
}
