import { execFile } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentDisposition, parseRange } from './middleware/file-answer.js';
import { AUTH, type ErrorJson, FILE, NAME, PREFIXES, generated, startFileServer } from './file-routes-fixture.js';

/** Answers from file routes: files with ranges, CSV streams, large files, and their OpenAPI description. */
let base: string;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ base, close } = await startFileServer());
});
afterAll(() => close());

describe.each(PREFIXES)('file routes, %s', (_form, prefix) => {
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
      expect(((await res.json()) as ErrorJson).error.code).toBe(
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

  it('writes control characters, line breaks and direction overrides of a stored name as `_`, in both forms', () => {
    expect(contentDisposition('attachment', 'in\u202Evoice.exe\r\n')).toBe('attachment; filename="in_voice.exe__"');
    expect(contentDisposition('attachment', 'é\u0000\u2066.pdf')).toBe(
      `attachment; filename="___.pdf"; filename*=UTF-8''%C3%A9__.pdf`,
    );
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
    const doc: unknown = await (await fetch(`${base}/api/v1/openapi.json`)).json();
    /** The value at a path of keys in the document (undefined where the path is missing). */
    const at = (...keys: string[]): unknown =>
      keys.reduce<unknown>((o, k) => (typeof o === 'object' && o !== null ? Reflect.get(o, k) : undefined), doc);
    const keysAt = (...keys: string[]) => Object.keys(at(...keys) ?? {});
    const upload = ['paths', '/api/v1/things/{id}/upload', 'post'];
    expect(keysAt(...upload, 'requestBody', 'content')).toEqual(['multipart/form-data']);
    expect(
      at(...upload, 'requestBody', 'content', 'multipart/form-data', 'schema', 'properties', 'file', 'format'),
    ).toBe('binary');
    expect(at(...upload, 'responses', '413')).toBeDefined();
    expect(keysAt('paths', '/api/v1/blobs', 'put', 'requestBody', 'content')).toEqual(['application/octet-stream']);
    const download = ['paths', '/api/v1/tenants/{slug}/blobs/{name}', 'get', 'responses'];
    expect(keysAt(...download)).toEqual(expect.arrayContaining(['200', '206', '304', '416']));
    expect(at(...download, '200', 'content', 'application/pdf', 'schema', 'format')).toBe('binary');
    expect(at('paths', '/api/v1/report', 'get', 'responses', '200', 'content', 'text/csv', 'schema', 'type')).toBe(
      'string',
    );
    expect(at('paths', '/api/v1/signed/{token}', 'put', 'security')).toEqual([]);
  });
});
