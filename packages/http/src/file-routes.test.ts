import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal, RateLimitStore } from '@fundi/application';
import { createHttpApp } from './app.js';
import { formA } from './forms/form-a.js';
import { formB } from './forms/form-b.js';
import type { Authenticator } from './middleware/auth.js';
import { contentDisposition, parseRange } from './middleware/file-answer.js';
import { route, type FileAnswer, type RouteDef } from './routes/route.js';
import { z } from './schemas/common.js';

/** Test-only routes exercising every kind of body and answer the route list can carry. */
const LIMIT = 1000;
const FILE = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));
const NAME = 'Verslag — Ümlaut "final".pdf';

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
    handle: async ({ body, file }) => ({ ...(await digest(file!.stream)), filename: file!.filename, note: body.note }),
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

function generated(bytes: number): Readable {
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

const principal = {
  actor: { tenantId: 't1', id: 'key1', role: 'admin', scopes: ['learners:read', 'learners:write'] },
  tenant: { id: 't1', slug: 'demo' },
  limits: { perMinute: 1_000_000, perDay: null },
  keyExpiresAt: null,
} as unknown as Principal;

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

let server: Server;
let base: string;

beforeAll(async () => {
  const silent = pino({ level: 'silent' });
  const app = createHttpApp({
    routes,
    forms: { a: formA({ encode: (s) => s, decode: (s) => s }), b: formB() },
    authenticator,
    rateLimits,
    anonymousLimits: { perMinute: 1_000_000, perDay: null },
    logger: silent,
    accessLog: silent,
    ready: async () => {},
  });
  server = app.listen(0, '127.0.0.1');
  await new Promise((ok) => server.once('listening', ok));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((ok) => server.close(() => ok())));

const AUTH = { authorization: 'Bearer good-key' };
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

function multipart(parts: ({ name: string; value: string } | { name: string; filename: string; data: Buffer })[]): {
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

const PREFIXES = [
  ['Form A', '/api/v1', 422],
  ['Form B', '/api/v1/tenants/demo', 400],
] as const;

describe.each(PREFIXES)('file routes, %s', (_form, prefix, invalid) => {
  describe('multipart upload', () => {
    const post = (m: { body: Buffer; type: string }) =>
      fetch(`${base}${prefix}/things/x1/upload`, {
        method: 'POST',
        headers: { ...AUTH, 'content-type': m.type },
        body: m.body,
      });

    it("streams the file part to the handler with the validated fields and the client's file name", async () => {
      const data = FILE.subarray(0, LIMIT);
      const res = await post(
        multipart([
          { name: 'note', value: 'hello' },
          { name: 'file', filename: 'Ünïcode.pdf', data },
        ]),
      );
      expect(res.status).toBe(201);
      expect((await res.json()) as any).toEqual({
        size: LIMIT,
        sha256: sha(data),
        filename: 'Ünïcode.pdf',
        note: 'hello',
      });
    });

    it("refuses a file one byte over the limit with 413 in the form's envelope", async () => {
      const res = await post(
        multipart([
          { name: 'note', value: 'x' },
          { name: 'file', filename: 'a.bin', data: Buffer.alloc(LIMIT + 1) },
        ]),
      );
      expect(res.status).toBe(413);
      const body = (await res.json()) as any;
      expect(body.error.code).toBe(prefix === '/api/v1' ? 'payload_too_large' : 'FILE_TOO_LARGE');
    });

    it('validates the fields before any byte of the file is read', async () => {
      const res = await post(
        multipart([
          { name: 'note', value: 'far too long a note' },
          { name: 'file', filename: 'a.bin', data: Buffer.alloc(10) },
        ]),
      );
      expect(res.status).toBe(invalid);
      expect(JSON.stringify((await res.json()) as any)).toContain('note');
    });

    it('names the missing file part', async () => {
      const res = await post(multipart([{ name: 'note', value: 'x' }]));
      expect(res.status).toBe(invalid);
      expect(JSON.stringify((await res.json()) as any)).toContain('file');
    });

    it('answers 415 to a body that is not multipart', async () => {
      const res = await fetch(`${base}${prefix}/things/x1/upload`, {
        method: 'POST',
        headers: { ...AUTH, 'content-type': 'application/json' },
        body: '{}',
      });
      expect(res.status).toBe(415);
    });

    it('needs a key with the scope', async () => {
      const res = await fetch(`${base}${prefix}/things/x1/upload`, { method: 'POST', body: 'x' });
      expect(res.status).toBe(401);
    });
  });

  describe('raw upload', () => {
    it('takes exactly the limit', async () => {
      const res = await fetch(`${base}${prefix}/blobs`, { method: 'PUT', headers: AUTH, body: FILE });
      expect(res.status).toBe(201);
      expect(((await res.json()) as any).sha256).toBe(sha(FILE));
    });

    it('refuses a declared length over the limit at once', async () => {
      const res = await fetch(`${base}${prefix}/blobs`, {
        method: 'PUT',
        headers: AUTH,
        body: Buffer.alloc(LIMIT + 1),
      });
      expect(res.status).toBe(413);
    });

    it('cuts off a chunked body without a length as soon as it passes the limit', async () => {
      let sent = 0;
      const body = new ReadableStream({
        pull(c) {
          if (sent >= 50 * LIMIT) return c.close();
          sent += 100;
          c.enqueue(new Uint8Array(100));
        },
      });
      const res = await fetch(`${base}${prefix}/blobs`, {
        method: 'PUT',
        headers: AUTH,
        body,
        duplex: 'half',
      } as RequestInit);
      expect(res.status).toBe(413);
    });
  });

  describe('file answers', () => {
    const get = (headers: Record<string, string> = {}, method = 'GET') =>
      fetch(`${base}${prefix}/blobs/f1`, { method, headers: { ...AUTH, ...headers } });

    it('serves the whole file with its type, length, validator and an RFC 6266 disposition', async () => {
      const res = await get();
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/pdf');
      expect(res.headers.get('content-length')).toBe('1000');
      expect(res.headers.get('etag')).toBe('"v1-abc"');
      expect(res.headers.get('accept-ranges')).toBe('bytes');
      expect(res.headers.get('cache-control')).toBe('private, no-store');
      expect(res.headers.get('content-disposition')).toBe(
        `attachment; filename="Verslag _ _mlaut _final_.pdf"; filename*=UTF-8''${encodeURIComponent(NAME)}`,
      );
      expect(Buffer.from(await res.arrayBuffer()).equals(FILE)).toBe(true);
    });

    it('serves a range with 206', async () => {
      const res = await get({ range: 'bytes=0-99' });
      expect(res.status).toBe(206);
      expect(res.headers.get('content-range')).toBe('bytes 0-99/1000');
      expect(res.headers.get('content-length')).toBe('100');
      expect(Buffer.from(await res.arrayBuffer()).equals(FILE.subarray(0, 100))).toBe(true);
    });

    it('serves a suffix range and an open range', async () => {
      const suffix = await get({ range: 'bytes=-10' });
      expect(suffix.status).toBe(206);
      expect(suffix.headers.get('content-range')).toBe('bytes 990-999/1000');
      expect(Buffer.from(await suffix.arrayBuffer()).equals(FILE.subarray(990))).toBe(true);
      const open = await get({ range: 'bytes=995-' });
      expect(open.headers.get('content-range')).toBe('bytes 995-999/1000');
      expect(Buffer.from(await open.arrayBuffer()).equals(FILE.subarray(995))).toBe(true);
    });

    it('answers 416 with the size to a range past the end', async () => {
      const res = await get({ range: 'bytes=1000-1200' });
      expect(res.status).toBe(416);
      expect(res.headers.get('content-range')).toBe('bytes */1000');
      expect(((await res.json()) as any).error.code).toBe(
        prefix === '/api/v1' ? 'range_not_satisfiable' : 'RANGE_NOT_SATISFIABLE',
      );
    });

    it('answers 304 when the validator matches, and ignores a range for another version', async () => {
      expect((await get({ 'if-none-match': '"v1-abc"' })).status).toBe(304);
      const stale = await get({ range: 'bytes=0-9', 'if-range': '"v0-old"' });
      expect(stale.status).toBe(200);
      expect(stale.headers.get('content-length')).toBe('1000');
      await stale.arrayBuffer();
    });

    it('answers HEAD with the headers only', async () => {
      const res = await get({}, 'HEAD');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-length')).toBe('1000');
      expect((await res.arrayBuffer()).byteLength).toBe(0);
    });

    it('streams a CSV of unknown length', async () => {
      const res = await fetch(`${base}${prefix}/report`, { headers: AUTH });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(res.headers.get('content-disposition')).toBe('attachment; filename="report.csv"');
      expect(await res.text()).toBe('a,b\r\n1,2\r\n');
    });
  });

  describe('routes without a key', () => {
    it("run with no actor; the signed credential is the handler's to check", async () => {
      const ok = await fetch(`${base}${prefix}/signed/good`, { method: 'PUT', body: Buffer.alloc(10) });
      expect(ok.status).toBe(200);
      expect((await ok.json()) as any).toEqual({ size: 10, tenantSlug: prefix === '/api/v1' ? null : 'demo' });
      const bad = await fetch(`${base}${prefix}/signed/forged`, { method: 'PUT', body: Buffer.alloc(10) });
      expect(bad.status).toBe(403);
      expect(((await bad.json()) as any).error.code).toBe(
        prefix === '/api/v1' ? 'signed_url_invalid' : 'SIGNED_URL_INVALID',
      );
    });

    it('still answer 401 for unknown paths without a key', async () => {
      expect((await fetch(`${base}${prefix}/nothing-here`)).status).toBe(401);
    });
  });
});

describe('large files stream, never held whole', () => {
  // The client runs in another process (curl), so only the server's memory is measured.
  const curl = (args: string[]) =>
    new Promise<string>((resolve, reject) => {
      execFile(
        'curl',
        ['-sS', '-H', 'Authorization: Bearer good-key', ...args],
        { maxBuffer: 1024 * 1024 },
        (e, out) => (e ? reject(e) : resolve(out)),
      );
    });

  // A server holding the file whole would grow by 100 MB or more. The bound leaves room for socket buffers that
  // are garbage but not yet collected (V8 collects external memory lazily, in steps of tens of megabytes).
  it('uploads and downloads 100 MB with peak RSS growth well under the file size', async () => {
    const size = 100 * 1024 * 1024;
    const dir = await mkdtemp(join(tmpdir(), 'fundi-big-'));
    const path = join(dir, 'big.bin');
    await pipeline(generated(size), createWriteStream(path));
    const before = process.memoryUsage().rss;
    let peak = before;
    const timer = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 5);
    try {
      const up = JSON.parse(
        await curl(['-X', 'PUT', '--data-binary', `@${path}`, '-H', 'content-type: video/mp4', `${base}/api/v1/big`]),
      );
      expect(up.size).toBe(size);
      const written = await curl(['-o', '/dev/null', '-w', '%{size_download}', `${base}/api/v1/big`]);
      expect(Number(written)).toBe(size);
    } finally {
      clearInterval(timer);
      await rm(dir, { recursive: true, force: true });
    }
    expect(peak - before).toBeLessThan(64 * 1024 * 1024);
  });
});

describe('range and disposition rules', () => {
  it('parses ranges as RFC 9110 says', () => {
    expect(parseRange(undefined, 10)).toEqual({ kind: 'full' });
    expect(parseRange('bytes=2-', 10)).toEqual({ kind: 'range', range: { start: 2, end: 9 } });
    expect(parseRange('bytes=2-100', 10)).toEqual({ kind: 'range', range: { start: 2, end: 9 } });
    expect(parseRange('bytes=-100', 10)).toEqual({ kind: 'range', range: { start: 0, end: 9 } });
    expect(parseRange('bytes=-0', 10)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=10-', 10)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=0-1,4-5', 10)).toEqual({ kind: 'full' });
    expect(parseRange('bytes=5-2', 10)).toEqual({ kind: 'full' });
    expect(parseRange('items=0-1', 10)).toEqual({ kind: 'full' });
  });

  it('writes plain ASCII names without filename*', () => {
    expect(contentDisposition('inline', 'photo.png')).toBe('inline; filename="photo.png"');
    expect(contentDisposition('attachment', 'a"b\\c.txt')).toBe(
      `attachment; filename="a_b_c.txt"; filename*=UTF-8''a%22b%5Cc.txt`,
    );
  });
});

describe('OpenAPI for file routes', () => {
  it('describes multipart, raw and file bodies, ranges and keyless routes', async () => {
    const doc = (await (await fetch(`${base}/api/v1/openapi.json`)).json()) as any;
    const upload = doc.paths['/api/v1/things/{id}/upload'].post;
    expect(Object.keys(upload.requestBody.content)).toEqual(['multipart/form-data']);
    expect(upload.requestBody.content['multipart/form-data'].schema.properties.file.format).toBe('binary');
    expect(upload.responses['413']).toBeDefined();
    expect(Object.keys(doc.paths['/api/v1/blobs'].put.requestBody.content)).toEqual(['application/octet-stream']);
    const download = doc.paths['/api/v1/tenants/{slug}/blobs/{name}'].get;
    expect(Object.keys(download.responses)).toEqual(expect.arrayContaining(['200', '206', '304', '416']));
    expect(download.responses['200'].content['application/pdf'].schema.format).toBe('binary');
    expect(doc.paths['/api/v1/report'].get.responses['200'].content['text/csv'].schema.type).toBe('string');
    expect(doc.paths['/api/v1/signed/{token}'].put.security).toEqual([]);
  });
});
