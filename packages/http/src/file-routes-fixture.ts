import { createHash } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import pino from 'pino';
import type { Principal, RateLimitStore } from '@fundi/application';
import { createHttpApp } from './app.js';
import { formA } from './forms/form-a.js';
import { formB } from './forms/form-b.js';
import type { Authenticator } from './middleware/auth.js';
import { route, type FileAnswer, type RouteDef } from './routes/route.js';
import { z } from './schemas/common.js';

/** Shared by the file-route tests (file-uploads.test.ts, file-answers.test.ts): test-only routes and a server. */
/** Test-only routes exercising every kind of body and answer the route list can carry. */
export const LIMIT = 1000;
export const FILE = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));
export const NAME = 'Verslag — Ümlaut "final".pdf';

async function digest(stream: Readable): Promise<{ size: number; sha256: string }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    hash.update(chunk as Buffer);
  }
  return { size, sha256: hash.digest('hex') };
}

const Digest = z.object({
  size: z.number(),
  sha256: z.string(),
  filename: z.string().nullable(),
  note: z.string().optional(),
});

const routes: RouteDef[] = [
  route({
    operationId: 'uploadThing',
    summary: 'multipart',
    tag: 'Test',
    method: 'post',
    path: '/things/{id}/upload',
    scope: 'learners:write',
    params: z.object({ id: z.string() }),
    body: z.object({ note: z.string().max(10) }).strict(),
    upload: { kind: 'multipart', field: 'file', maxBytes: LIMIT },
    success: { status: 201, schema: Digest, description: 'digest' },
    location: (d) => `/blobs/${d.sha256}`,
    handle: async ({ body, file }) => {
      const d = await digest(file!.stream);
      return { ...d, filename: file!.filename, note: (await body.all).note };
    },
  }),
  route({
    operationId: 'putBlob',
    summary: 'raw',
    tag: 'Test',
    method: 'put',
    path: '/blobs',
    scope: 'learners:write',
    upload: { kind: 'raw', maxBytes: LIMIT },
    success: { status: 201, schema: Digest, description: 'digest' },
    location: (d) => `/blobs/${d.sha256}`,
    handle: async ({ file }) => ({ ...(await digest(file!.stream)), filename: null }),
  }),
  route({
    operationId: 'putBig',
    summary: 'raw, large',
    tag: 'Test',
    method: 'put',
    path: '/big',
    scope: 'learners:write',
    upload: { kind: 'raw', maxBytes: 120 * 1024 * 1024 },
    success: { status: 201, schema: Digest, description: 'digest' },
    handle: async ({ file }) => ({ ...(await digest(file!.stream)), filename: null }),
  }),
  route({
    operationId: 'getBlob',
    summary: 'file with ranges',
    tag: 'Test',
    method: 'get',
    path: '/blobs/{name}',
    scope: 'learners:read',
    params: z.object({ name: z.string() }),
    success: { status: 200, file: { contentTypes: ['application/pdf'], ranges: true }, description: 'the file' },
    handle: async (): Promise<FileAnswer> => ({
      contentType: 'application/pdf',
      size: FILE.length,
      filename: NAME,
      etag: 'v1-abc',
      open: (r) => Readable.from([r ? FILE.subarray(r.start, r.end + 1) : FILE]),
    }),
  }),
  route({
    operationId: 'getBigFile',
    summary: 'a 100 MB file, generated',
    tag: 'Test',
    method: 'get',
    path: '/big',
    scope: 'learners:read',
    success: { status: 200, file: { contentTypes: ['video/mp4'], ranges: true }, description: 'the file' },
    handle: async (): Promise<FileAnswer> => ({
      contentType: 'video/mp4',
      size: 100 * 1024 * 1024,
      open: (r) => generated(r ? r.end - r.start + 1 : 100 * 1024 * 1024),
    }),
  }),
  route({
    operationId: 'getReport',
    summary: 'streamed CSV',
    tag: 'Test',
    method: 'get',
    path: '/report',
    scope: 'learners:read',
    success: { status: 200, file: { contentTypes: ['text/csv'] }, description: 'CSV' },
    handle: async (): Promise<FileAnswer> => ({
      contentType: 'text/csv; charset=utf-8',
      filename: 'report.csv',
      open: () => Readable.from(['a,b\r\n', '1,2\r\n']),
    }),
  }),
  route({
    operationId: 'putSigned',
    summary: 'signed upload',
    tag: 'Test',
    method: 'put',
    path: '/signed/{token}',
    auth: 'none',
    scope: undefined,
    params: z.object({ token: z.string() }),
    upload: { kind: 'raw', maxBytes: LIMIT },
    errors: [403],
    success: {
      status: 200,
      schema: z.object({ size: z.number(), tenantSlug: z.string().nullable() }),
      description: 'stored',
    },
    handle: async ({ params, file, tenantSlug, actor }) => {
      if (params.token !== 'good' || actor !== null)
        throw new (await import('@fundi/domain')).DomainError('forbidden', 'signed_url_invalid', 'bad signature');
      return { size: (await digest(file!.stream)).size, tenantSlug };
    },
  }),
];

export function generated(bytes: number): Readable {
  const chunk = Buffer.alloc(64 * 1024, 7);
  let left = bytes;
  return new Readable({
    read() {
      if (left <= 0) return void this.push(null);
      const n = Math.min(left, chunk.length);
      left -= n;
      this.push(n === chunk.length ? chunk : chunk.subarray(0, n));
    },
  });
}

const principal: Principal = {
  actor: { tenantId: 't1', id: 'key1', role: 'admin', scopes: ['learners:read', 'learners:write'] },
  tenant: {
    id: 't1',
    slug: 'demo',
    name: 'Demo',
    plan: 'pilot',
    limitOverrides: {},
    createdAt: '2026-01-01T00:00:00.000Z',
  },
  limits: { perMinute: 1_000_000, perDay: null, storageBytes: null },
  keyExpiresAt: null,
};

const authenticator: Authenticator = {
  async execute(presented) {
    if (presented === 'good-key') return principal;
    throw Object.assign(new (await import('@fundi/domain')).DomainError('unauthorized', 'unauthorized', 'no'), {});
  },
};
const rateLimits: RateLimitStore = {
  async hit(_k, windows) {
    return windows.map(() => ({ hits: 1, resetAt: 0 }));
  },
};

/** Starts the app with the test routes on a free port; `close` stops it. */
export async function startFileServer(): Promise<{ base: string; close: () => Promise<void> }> {
  const silent = pino({ level: 'silent' });
  const app = createHttpApp({
    routes,
    forms: { a: formA({ encode: (s) => s, decode: (s) => s }), b: formB() },
    authenticator,
    rateLimits,
    anonymousLimits: { perMinute: 1_000_000, perDay: null },
    logger: silent,
    accessLog: { request() {} },
    ready: async () => {},
  });
  const server: Server = app.listen(0, '127.0.0.1');
  await new Promise((ok) => server.once('listening', ok));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, close: () => new Promise<void>((ok) => server.close(() => ok())) };
}

export const AUTH = { authorization: 'Bearer good-key' };
export const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

export function multipart(
  parts: ({ name: string; value: string } | { name: string; filename: string; data: Buffer })[],
): {
  body: Buffer;
  type: string;
} {
  const boundary = '----fundi' + Math.random().toString(16).slice(2);
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const head =
      'filename' in p
        ? `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"; filename*=UTF-8''${encodeURIComponent(p.filename)}\r\nContent-Type: application/octet-stream\r\n\r\n`
        : `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"\r\n\r\n`;
    chunks.push(Buffer.from(head), 'filename' in p ? p.data : Buffer.from(p.value), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), type: `multipart/form-data; boundary=${boundary}` };
}

export const PREFIXES = [
  ['Form A', '/api/v1', 422],
  ['Form B', '/api/v1/tenants/demo', 400],
] as const;

/** An error answer of either form, as far as these tests read it. */
export type ErrorJson = { error: { code: string } };
