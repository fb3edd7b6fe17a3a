import { once } from 'node:events';
import type { Readable } from 'node:stream';
import type { EvidenceUseCases } from '@fundi/application';
import { ZipArchive } from 'archiver';
import { EVIDENCE_TYPES } from '@fundi/domain';
import { IdParams, z } from '../schemas/common.js';
import {
  BulkDownloadIn,
  BulkDownloadOut,
  DownloadGrantOut,
  EvidenceListQuery,
  EvidenceOut,
  EvidenceVersionsOut,
  MultipartFields,
  ReviewIn,
  TokenParams,
  UploadGrantOut,
  UploadRequestIn,
  AwaitedUploadRequestIn,
  UsageOut,
  VersionFields,
  VersionUploadRequestIn,
} from '../schemas/evidence-schemas.js';
import { dayEnd, dayStart } from './range.js';
import { route, type RouteDef } from './route.js';

const MAX = 100 * 1024 * 1024;

/** A signed URL made absolute with the request's origin when no public URL is configured. */
const absolute =
  <T extends { url?: string; uploadUrl?: string }>(origin: string) =>
  (g: T): T => ({
    ...g,
    ...(g.url?.startsWith('/') ? { url: origin + g.url } : {}),
    ...(g.uploadUrl?.startsWith('/') ? { uploadUrl: origin + g.uploadUrl } : {}),
  });
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
const types = EVIDENCE_TYPES.join(', ');

/**
 * A ZIP written while it is read: entries are opened one at a time (each a decrypting stream), stored without
 * compression (evidence is mostly compressed media already), so memory stays flat whatever the count.
 */
function zipOf(entries: { name: string; open(): Promise<Readable> }[]): Readable {
  const zip = new ZipArchive({ store: true, highWaterMark: 1024 * 1024 });
  (async () => {
    // The next file is opened while the current one is written, so the store's latency does not add up.
    let next = entries.length ? entries[0]!.open() : null;
    for (let i = 0; i < entries.length; i++) {
      const source = await next!;
      next = i + 1 < entries.length ? entries[i + 1]!.open() : null;
      const added = once(zip, 'entry');
      zip.append(source, { name: entries[i]!.name });
      await added;
    }
    await zip.finalize();
  })().catch((err: unknown) => zip.destroy(err as Error));
  return zip as unknown as Readable;
}

/** Evidence files (docs/api.md, "Evidence"), the signed file URLs, and storage usage. */
export function evidenceRoutes(u: { evidence: EvidenceUseCases }): RouteDef[] {
  const { uploads, uploadUrls, reviews, downloads, usage } = u.evidence;
  return [
    route({
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
        reviews.list(actor, { ...query, from: dayStart(query.from), to: dayEnd(query.to) }, page),
    }),
    route({
      operationId: 'requestEvidenceUpload',
      summary: 'Declare an upload and get a signed URL to PUT the file to',
      tag,
      method: 'post',
      path: '/evidence/upload',
      scope: 'evidence:write',
      description:
        "The URL lives 3600 s and works once; the PUT must carry exactly `size` bytes. The file's type is sniffed from its bytes when they arrive.",
      body: UploadRequestIn,
      success: { status: 201, schema: UploadGrantOut, description: 'Where to PUT the bytes' },
      errors: [403],
      handle: ({ actor, body, origin }) => uploadUrls.requestUpload(actor, body).then(absolute(origin)),
    }),
    route({
      operationId: 'uploadEvidence',
      summary: 'Upload evidence (multipart)',
      tag,
      method: 'post',
      path: '/evidence',
      scope: 'evidence:write',
      description: `Text fields first, then the \`file\` part. Types: ${types}. Limits by the sniffed type: documents 25 MB, images 10 MB, video and archives 100 MB; anything else is 415.`,
      body: MultipartFields,
      upload: { kind: 'multipart', field: 'file', maxBytes: MAX },
      actors: true,
      success: { status: 201, schema: EvidenceOut, description: 'The evidence, version 1, submitted' },
      errors: [403],
      handle: ({ actor, body, file, ip }) =>
        uploads.upload(actor, body, { stream: file!.stream, filename: file!.filename }, ip),
    }),
    route({
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
      handle: ({ actor, params }) => reviews.get(actor, params.id),
    }),
    route({
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
      handle: ({ actor, params, body }) => reviews.review(actor, params.id, body),
    }),
    route({
      operationId: 'deleteEvidence',
      summary: 'Delete evidence (restorable for 30 days)',
      tag,
      method: 'delete',
      path: '/evidence/{id}',
      scope: 'evidence:delete',
      params: IdParams,
      success: { status: 204, description: 'Marked for deletion' },
      errors: [404],
      handle: ({ actor, params }) => reviews.remove(actor, params.id),
    }),
    route({
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
      handle: ({ actor, params }) => reviews.restore(actor, params.id),
    }),
    route({
      operationId: 'listEvidenceVersions',
      summary: 'Every version with its own review',
      tag,
      method: 'get',
      path: '/evidence/{id}/versions',
      scope: 'evidence:read',
      params: IdParams,
      actors: true,
      success: { status: 200, schema: EvidenceVersionsOut, description: 'Versions, oldest first' },
      errors: [404],
      handle: async ({ actor, params }) => ({ data: await reviews.versions(actor, params.id) }),
    }),
    route({
      operationId: 'uploadEvidenceVersion',
      summary: 'Upload the next version (multipart) after a revision was requested',
      tag,
      method: 'post',
      path: '/evidence/{id}/versions',
      scope: 'evidence:write',
      params: IdParams,
      body: VersionFields,
      upload: { kind: 'multipart', field: 'file', maxBytes: MAX },
      actors: true,
      success: { status: 201, schema: EvidenceOut, description: 'The evidence with its new version, submitted' },
      errors: [403, 404, 409],
      handle: ({ actor, params, body, file, ip }) =>
        uploads.uploadVersion(actor, params.id, { stream: file!.stream, filename: file!.filename }, body.filename, ip),
    }),
    route({
      operationId: 'requestEvidenceVersionUpload',
      summary: 'Declare the next version and get a signed URL to PUT it to',
      tag,
      method: 'post',
      path: '/evidence/{id}/versions/upload',
      scope: 'evidence:write',
      params: IdParams,
      body: VersionUploadRequestIn,
      success: { status: 201, schema: UploadGrantOut, description: 'Where to PUT the bytes' },
      errors: [403, 404, 409],
      handle: ({ actor, params, body, origin }) =>
        uploadUrls.requestUpload(actor, body, params.id).then(absolute(origin)),
    }),
    route({
      operationId: 'requestAwaitedEvidenceUpload',
      summary: 'Get a signed URL to PUT the file of evidence awaiting it',
      tag,
      method: 'post',
      path: '/evidence/{id}/upload',
      scope: 'evidence:write',
      description:
        "For a record made without its file (status `awaiting_upload`, from an `evidence` import): the same grant as `POST /evidence/upload`, for version 1 of this record; the PUT makes it `submitted` and raises `evidence.uploaded`. `filename` defaults to the record's. Any other evidence is 409 `evidence_not_awaiting_upload`.",
      params: IdParams,
      body: AwaitedUploadRequestIn,
      success: { status: 201, schema: UploadGrantOut, description: 'Where to PUT the bytes' },
      errors: [403, 404, 409],
      handle: ({ actor, params, body, origin }) =>
        uploadUrls.requestAwaitedUpload(actor, params.id, body).then(absolute(origin)),
    }),
    route({
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
      handle: ({ actor, params, ip, origin }) => downloads.downloadUrl(actor, params.id, ip).then(absolute(origin)),
    }),
    route({
      operationId: 'putSignedUpload',
      summary: 'PUT the bytes of a declared upload to its signed URL',
      tag: 'Files',
      method: 'put',
      path: '/files/uploads/{token}',
      auth: 'none',
      scope: undefined,
      params: TokenParams,
      upload: { kind: 'raw', maxBytes: MAX, description: 'Exactly the declared number of bytes' },
      description:
        'A conflict (409) when the evidence changed after the URL was issued: another upload gave it this version first, or it was deleted.',
      success: { status: 201, schema: EvidenceOut, description: 'The stored evidence' },
      errors: [403, 409],
      handle: async ({ params, file, tenantSlug, ip, expandActors }) => {
        // No key: the tenant is the upload URL's, known once it is checked.
        const done = await uploadUrls.completeUpload(params.token, tenantSlug, file!.stream, ip);
        return expandActors(done.tenantId, done.evidence);
      },
    }),
    route({
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
        const f = await downloads.openDownload(params.token, tenantSlug, ip);
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
    route({
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
      handle: ({ actor, body, ip, origin }) =>
        downloads.bulkDownloadUrl(actor, body.evidenceIds, ip).then(absolute(origin)),
    }),
    route({
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
        const b = await downloads.openBundle(params.token, tenantSlug, ip);
        return { contentType: 'application/zip', filename: b.filename, open: () => zipOf(b.entries) };
      },
    }),
    route({
      operationId: 'getUsage',
      summary: 'Storage used against the quota',
      tag: 'Usage',
      method: 'get',
      path: '/usage',
      scope: 'usage:read',
      success: { status: 200, schema: UsageOut, description: 'Storage use' },
      handle: ({ actor }) => usage.usage(actor),
    }),
  ];
}
