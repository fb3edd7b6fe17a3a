import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH, type ErrorJson, FILE, LIMIT, multipart, PREFIXES, sha, startFileServer } from './file-routes-fixture.js';

/** Uploads through file routes: multipart, raw, and keyless signed uploads. */
let base: string;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ base, close } = await startFileServer());
});
afterAll(() => close());

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
      expect(await res.json()).toEqual({
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
      const body = (await res.json()) as ErrorJson;
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
      expect(JSON.stringify(await res.json())).toContain('note');
    });

    it('reads text fields sent after the file part, once the body has ended', async () => {
      const data = FILE.subarray(0, 100);
      const res = await post(
        multipart([
          { name: 'file', filename: 'a.bin', data },
          { name: 'note', value: 'late' },
        ]),
      );
      expect(res.status).toBe(201);
      expect(await res.json()).toMatchObject({ size: 100, sha256: sha(data), note: 'late' });
      const bad = await post(
        multipart([
          { name: 'file', filename: 'a.bin', data },
          { name: 'note', value: 'far too long a note' },
        ]),
      );
      expect(bad.status).toBe(invalid);
      expect(JSON.stringify(await bad.json())).toContain('note');
    });

    it('refuses a field given again after the file part, and a second file part', async () => {
      const data = FILE.subarray(0, 10);
      const again = await post(
        multipart([
          { name: 'note', value: 'one' },
          { name: 'file', filename: 'a.bin', data },
          { name: 'note', value: 'two' },
        ]),
      );
      expect(again.status).toBe(invalid);
      expect(JSON.stringify(await again.json())).toContain('is given more than once');
      const twice = await post(
        multipart([
          { name: 'note', value: 'one' },
          { name: 'file', filename: 'a.bin', data },
          { name: 'file', filename: 'b.bin', data },
        ]),
      );
      expect(twice.status).toBe(invalid);
      expect(JSON.stringify(await twice.json())).toContain('must be the only file part');
    });

    it('takes a body that ends after the file part without its closing boundary, as it always did', async () => {
      const m = multipart([
        { name: 'note', value: 'x' },
        { name: 'file', filename: 'a.bin', data: Buffer.alloc(10, 1) },
      ]);
      const cut = m.body.subarray(0, m.body.length - 4);
      const res = await post({ body: cut, type: m.type });
      expect(res.status).toBe(201);
      expect(await res.json()).toMatchObject({ size: 10, note: 'x' });
    });

    it('names the missing file part', async () => {
      const res = await post(multipart([{ name: 'note', value: 'x' }]));
      expect(res.status).toBe(invalid);
      expect(JSON.stringify(await res.json())).toContain('file');
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
      expect(((await res.json()) as { sha256: string }).sha256).toBe(sha(FILE));
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

  describe('routes without a key', () => {
    it("run with no actor; the signed credential is the handler's to check", async () => {
      const ok = await fetch(`${base}${prefix}/signed/good`, { method: 'PUT', body: Buffer.alloc(10) });
      expect(ok.status).toBe(200);
      expect(await ok.json()).toEqual({ size: 10, tenantSlug: prefix === '/api/v1' ? null : 'demo' });
      const bad = await fetch(`${base}${prefix}/signed/forged`, { method: 'PUT', body: Buffer.alloc(10) });
      expect(bad.status).toBe(403);
      // The same code under either form's path: a signed URL belongs to the file host, not to a form.
      expect(((await bad.json()) as ErrorJson).error.code).toBe('signed_url_invalid');
    });

    it('still answer 401 for unknown paths without a key', async () => {
      expect((await fetch(`${base}${prefix}/nothing-here`)).status).toBe(401);
    });
  });
});
