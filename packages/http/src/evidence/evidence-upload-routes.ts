import type { EvidenceUseCases } from '@fundi/application/evidence';
import { EVIDENCE_TYPES } from '@fundi/domain/evidence';
import { IdParams, TokenParams } from '../schemas/common.js';
import { EvidenceOut } from './evidence-schemas.js';
import {
  AwaitedUploadRequestIn,
  MultipartFields,
  UploadGrantOut,
  UploadRequestIn,
  VersionFields,
  VersionUploadRequestIn,
} from './evidence-upload-schemas.js';
import { route } from '../routes/route.js';
import { absolute } from '../routes/signed-url.js';

const MAX = 100 * 1024 * 1024;

const tag = 'Evidence';
/** A grant's `Location`: the evidence its PUT makes or gives a new version (docs/api.md, "Two API forms"). */
const evidenceOfGrant = (g: { evidenceId: string }) => `/evidence/${encodeURIComponent(g.evidenceId)}`;
const types = EVIDENCE_TYPES.join(', ');

/**
 * Evidence uploads (docs/api.md, "Evidence"): multipart, or declared first and PUT to a signed URL; the first
 * version, the next one, and the file of a record awaiting it. Keyed by operation id; evidence-routes.ts lists
 * them in their order.
 */
export function evidenceUploadRoutes({
  uploads,
  requestUpload,
  requestAwaitedUpload,
  completeUpload,
}: EvidenceUseCases) {
  return {
    requestEvidenceUpload: route({
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
      location: evidenceOfGrant,
      errors: [403],
      handle: ({ actor, body, origin }) => requestUpload.execute(actor, body).then(absolute(origin)),
    }),
    uploadEvidence: route({
      operationId: 'uploadEvidence',
      summary: 'Upload evidence (multipart)',
      tag,
      method: 'post',
      path: '/evidence',
      scope: 'evidence:write',
      description: `Text fields and the \`file\` part in any order. Types: ${types}. Limits by the sniffed type: documents 25 MB, images 10 MB, video and archives 100 MB; anything else is 415.`,
      body: MultipartFields,
      upload: { kind: 'multipart', field: 'file', maxBytes: MAX },
      actors: true,
      success: { status: 201, schema: EvidenceOut, description: 'The evidence, version 1, submitted' },
      errors: [403],
      handle: ({ actor, body, file, ip }) =>
        uploads.upload(actor, body, { stream: file!.stream, filename: file!.filename }, ip),
    }),
    uploadEvidenceVersion: route({
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
        uploads.uploadVersion(actor, params.id, { stream: file!.stream, filename: file!.filename }, body, ip),
    }),
    requestEvidenceVersionUpload: route({
      operationId: 'requestEvidenceVersionUpload',
      summary: 'Declare the next version and get a signed URL to PUT it to',
      tag,
      method: 'post',
      path: '/evidence/{id}/versions/upload',
      scope: 'evidence:write',
      params: IdParams,
      body: VersionUploadRequestIn,
      success: { status: 201, schema: UploadGrantOut, description: 'Where to PUT the bytes' },
      location: evidenceOfGrant,
      errors: [403, 404, 409],
      handle: ({ actor, params, body, origin }) => requestUpload.execute(actor, body, params.id).then(absolute(origin)),
    }),
    requestAwaitedEvidenceUpload: route({
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
      location: evidenceOfGrant,
      errors: [403, 404, 409],
      handle: ({ actor, params, body, origin }) =>
        requestAwaitedUpload.execute(actor, params.id, body).then(absolute(origin)),
    }),
    putSignedUpload: route({
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
      location: (e) => `/evidence/${encodeURIComponent(e.id)}`,
      errors: [403, 409],
      handle: async ({ params, file, tenantSlug, ip, expandActors }) => {
        // No key: the tenant is the upload URL's, known once it is checked.
        const done = await completeUpload.execute(params.token, tenantSlug, file!.stream, ip);
        return expandActors(done.tenantId, done.evidence);
      },
    }),
  };
}
