import type { ExportTypeDef, ExportUseCases } from '@fundi/application/exports';
import { IdParams, TokenParams } from '../schemas/common.js';
import {
  ExportDownloadOut,
  exportSchemas,
  RegulatorRunIn,
  RegulatorSettingsIn,
  RegulatorSettingsOut,
} from './export-schemas.js';
import { route, type RouteDef } from '../routes/route.js';

const tag = 'Exports';

const absolute =
  (origin: string) =>
  <T extends { url: string }>(g: T): T =>
    g.url.startsWith('/') ? { ...g, url: origin + g.url } : g;

type Schemas = ReturnType<typeof exportSchemas>;

function regulatorRoute(x: ExportUseCases, s: Schemas, type: 'qcto01' | 'qcto02', summary: string): RouteDef {
  return route({
    operationId: type === 'qcto01' ? 'requestQcto01' : 'requestQcto02',
    summary,
    tag: 'Regulator files',
    method: 'post',
    path: `/exports/${type}`,
    scope: 'exports:write',
    description:
      'A real run is queued (202, the export record; learners with readiness findings are left out and counted). `dryRun: true` answers only the readiness report (200). See docs/api.md, "Regulator files".',
    body: RegulatorRunIn,
    success: {
      status: 202,
      schema: s.RegulatorRunOut,
      description: 'The queued export',
      alternate: {
        status: 200,
        description: 'Dry run: the readiness report and counts',
        when: (r) => (r as { dryRun?: boolean }).dryRun === true,
      },
    },
    errors: [404],
    handle: async ({ actor, body, origin }) => {
      const r = await x.requestRegulator.execute(actor, type, body, origin);
      return r.dryRun ? r.report : r.export;
    },
  });
}

/**
 * Exports, regulator files and the regulator settings (docs/api.md, "Exports", "Regulator files"); an export's
 * `type` is one of the offered types.
 */
export function exportRoutes(u: { exports: ExportUseCases; exportTypes: readonly ExportTypeDef[] }): RouteDef[] {
  const x = u.exports;
  const s = exportSchemas(u.exportTypes);
  const { ExportIn, ExportOut } = s;
  return [
    route({
      operationId: 'requestExport',
      summary: 'Queue an export',
      tag,
      method: 'post',
      path: '/exports',
      scope: 'exports:write',
      description:
        'Runs in the background: `queued` -> `processing` -> `ready` | `failed`; `export.ready` and `export.completed` carry a signed download URL.',
      body: ExportIn,
      success: { status: 202, schema: ExportOut, description: 'The queued export' },
      handle: ({ actor, body, origin }) => x.request.execute(actor, body, origin),
    }),
    regulatorRoute(x, s, 'qcto01', 'QCTO01 learner information file (or its readiness report)'),
    regulatorRoute(x, s, 'qcto02', 'QCTO02 module achievement file (or its readiness report)'),
    route({
      operationId: 'listExports',
      summary: 'List exports',
      tag,
      method: 'get',
      path: '/exports',
      scope: 'exports:read',
      list: { item: ExportOut },
      success: { status: 200, description: 'A page of exports, oldest first' },
      handle: ({ actor, page }) => x.list.execute(actor, page),
    }),
    route({
      operationId: 'getExport',
      summary: 'Get an export (its status)',
      tag,
      method: 'get',
      path: '/exports/{id}',
      scope: 'exports:read',
      params: IdParams,
      success: { status: 200, schema: ExportOut, description: 'The export' },
      errors: [404],
      handle: ({ actor, params }) => x.get.execute(actor, params.id),
    }),
    route({
      operationId: 'getExportDownloadUrl',
      summary: "A signed URL (3600 s) to a ready export's file",
      tag,
      method: 'get',
      path: '/exports/{id}/download',
      scope: 'exports:read',
      description: '409 while the export is not ready, or once its file was purged. Issuing the URL is audited.',
      params: IdParams,
      success: { status: 200, schema: ExportDownloadOut, description: 'The URL and what it serves' },
      errors: [404, 409],
      handle: ({ actor, params, origin }) => x.downloadUrl.execute(actor, params.id).then(absolute(origin)),
    }),
    route({
      operationId: 'downloadSignedExport',
      summary: 'Download an export through a signed URL',
      tag: 'Files',
      method: 'get',
      path: '/files/exports/{token}',
      auth: 'none',
      scope: undefined,
      params: TokenParams,
      errors: [403, 404, 409],
      success: {
        status: 200,
        file: { contentTypes: ['text/csv', 'text/plain', 'application/zip'], ranges: true },
        description: 'The decrypted export file',
      },
      handle: async ({ params, tenantSlug }) => {
        const f = await x.openDownload.execute(params.token, tenantSlug);
        return { contentType: f.contentType, size: f.size, filename: f.filename, etag: f.etag, open: (r) => f.open(r) };
      },
    }),
    route({
      operationId: 'getRegulatorSettings',
      summary: "The tenant's regulator settings (admin only)",
      tag: 'Regulator files',
      method: 'get',
      path: '/settings/regulator',
      scope: 'exports:read',
      success: { status: 200, schema: RegulatorSettingsOut, description: 'Every setting; null = unset' },
      handle: ({ actor }) => x.getSettings.execute(actor),
    }),
    route({
      operationId: 'putRegulatorSettings',
      summary: "Replace the tenant's regulator settings (admin only)",
      tag: 'Regulator files',
      method: 'put',
      path: '/settings/regulator',
      scope: 'exports:write',
      body: RegulatorSettingsIn,
      success: { status: 200, schema: RegulatorSettingsOut, description: 'The settings as stored' },
      handle: ({ actor, body }) => x.putSettings.execute(actor, body),
    }),
  ];
}
