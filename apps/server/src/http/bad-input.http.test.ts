import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresAvailable } from '@fundi/adapters/testing';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import { programmeBody } from '../testing/training-fixtures.js';

const pgUp = await postgresAvailable();
const JSON_TYPE = 'application/json; charset=utf-8';
const VALID = { firstName: 'Thandi', lastName: 'Nkosi', idNumber: '9001049818080' };

/** Bad input gets the form's validation answer and changes nothing, the same way on SQLite and Postgres. */
for (const kind of ['sqlite', 'postgres'] as const) {
  (kind === 'postgres' && !pgUp ? describe.skip : describe)(`bad input [${kind}]`, () => {
    let s: TestServer;
    let key: string;
    beforeAll(async () => {
      s = await startTestServer(kind);
      key = (await s.tenant('bad')).key;
    });
    afterAll(() => s?.close());

    const count = async () => (await s.call('GET', '/api/v1/learners', key)).body.pagination.total as number;

    it("refuses NUL and other control characters in a JSON string, a query and a path, with the form's status", async () => {
      const before = await count();
      const a = await s.call('POST', '/api/v1/learners', key, { ...VALID, firstName: 'Tha\u0000ndi' });
      expect(a.status).toBe(422);
      expect(a.body.error.details[0].field).toBe('firstName');
      const b = await s.call('POST', '/api/v1/tenants/bad/learners', key, { ...VALID, lastName: 'Nk\u202eosi' });
      expect(b.status).toBe(400);
      expect(b.body.error.details.field).toBe('lastName');
      expect(
        (
          await s.call(
            'POST',
            '/api/v1/learners',
            key,
            `{"firstName":"\\ud800x","lastName":"N","idNumber":"9001049818080"}`,
          )
        ).status,
      ).toBe(422);
      expect((await s.call('GET', '/api/v1/learners?search=a%00b', key)).status).toBe(422);
      expect((await s.call('GET', '/api/v1/learners/lrn_%00', key)).status).toBe(422);
      expect((await s.call('GET', '/v1/tenants/bad/learners/lrn_%07', key)).status).toBe(400);
      expect(await count()).toBe(before);
      // Tabs and line breaks are text, not controls.
      const ok = await s.call('POST', '/api/v1/learners', key, { ...VALID, department: 'Line\tA' });
      expect(ok.status).toBe(201);
    });

    it('takes only plain decimal integers for limit and offset, with a readable message', async () => {
      for (const bad of ['0x10', '1e2', '10.0', '+10', '', 'abc', '-1', '101']) {
        const a = await s.call('GET', `/api/v1/learners?limit=${encodeURIComponent(bad)}`, key);
        expect(a.status, bad).toBe(422);
        expect(a.body.error.details[0]).toEqual({ field: 'limit', message: 'must be a whole number from 1 to 100' });
        expect(
          (
            await s.call(
              'GET',
              `/api/v1/tenants/bad/learners?offset=${encodeURIComponent(bad === '101' ? '1.5' : bad)}`,
              key,
            )
          ).status,
          bad,
        ).toBe(400);
      }
      expect((await s.call('GET', '/api/v1/learners?limit=007', key)).status).toBe(200);
    });

    it('names a missing field as required rather than by its type', async () => {
      const r = await s.call('POST', '/api/v1/learners', key, { lastName: 'Nkosi', idNumber: '9001049818080' });
      expect(r.status).toBe(422);
      expect(r.body.error.details).toContainEqual({ field: 'firstName', message: 'is required' });
    });

    it('checks the body of an action route that takes none: not JSON, unknown fields and oversize are refused', async () => {
      const p = await s.call('POST', '/api/v1/programmes', key, programmeBody('P-BAD'));
      expect(p.status).toBe(201);
      const retire = `/api/v1/programmes/${p.body.id}/retire`;
      expect((await s.call('POST', retire, key, '{not json')).status).toBe(422);
      expect((await s.call('POST', retire, key, { force: true })).status).toBe(422);
      expect((await s.call('POST', retire, key, JSON.stringify({ x: 'y'.repeat(1024 * 1024) }))).status).toBe(413);
      expect((await s.call('GET', `/api/v1/programmes/${p.body.id}`, key)).body.status).not.toBe('retired');
      expect((await s.call('POST', retire, key)).status).toBe(200);
    });

    it('answers 405 with Allow to a known path with another method, after the key check', async () => {
      const r = await s.call('PUT', '/api/v1/learners', key, {});
      expect(r.status).toBe(405);
      expect(r.headers.get('allow')).toBe('GET, HEAD, POST');
      expect(r.body.error.code).toBe('method_not_allowed');
      // The test server checked it against the path's documented 405; the same answer without Allow is refused.
      expect(s.validator.checkResponse('PUT', '/api/v1/learners', 405, JSON_TYPE, r.body, new Headers())).toEqual([
        'PUT /api/v1/learners 405: the required header Allow is missing',
      ]);
      const b = await s.call('POST', '/v1/tenants/bad/learners/lrn_x', key, {});
      expect(b.status).toBe(405);
      expect(b.headers.get('allow')).toBe('DELETE, GET, HEAD, PATCH');
      expect(b.body.error.code).toBe('METHOD_NOT_ALLOWED');
      expect((await s.call('PUT', '/api/v1/learners')).status).toBe(401);
    });

    it('gives every 201 a Location where the new resource can be read', async () => {
      const r = await s.call('POST', '/api/v1/tenants/bad/learners', key, { ...VALID, idNumber: '8501015800088' });
      expect(r.status).toBe(201);
      expect(r.headers.get('location')).toBe(`/api/v1/tenants/bad/learners/${r.body.id}`);
      expect((await s.call('GET', r.headers.get('location')!, key)).status).toBe(200);
    });
  });
}

describe('oversized headers', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer('memory');
  });
  afterAll(() => s?.close());

  const oversized = (path: string) => {
    const url = new URL(`${s.url}${path}`);
    return new Promise<{ status: number; body: string; type: string }>((resolve, reject) => {
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname + url.search,
          headers: { 'x-big': 'x'.repeat(20_000) },
        },
        (res) => {
          let body = '';
          res.on('data', (c) => {
            body += c;
          });
          res.on('end', () => resolve({ status: res.statusCode!, body, type: String(res.headers['content-type']) }));
        },
      );
      req.on('error', reject);
      req.end();
    });
  };

  const b431 = () => JSON.stringify({ error: { code: 'HEADERS_TOO_LARGE', message: 'too large', details: {} } });

  it("get 431 in the error envelope of the path's form, not a bare status line", async () => {
    const a = await oversized('/api/v1/learners');
    expect(a.status).toBe(431);
    expect(a.type).toMatch(/application\/json/);
    expect(JSON.parse(a.body).error).toMatchObject({ code: 'headers_too_large', details: [] });
    // As the document describes it, for any operation of either form.
    expect(s.validator.checkResponse('GET', '/api/v1/learners', 431, a.type, JSON.parse(a.body))).toEqual([]);
    for (const path of ['/v1/tenants/demo/learners', '/api/v1/tenants/demo/learners?limit=1']) {
      const b = await oversized(path);
      expect(b.status).toBe(431);
      expect(JSON.parse(b.body).error).toMatchObject({ code: 'HEADERS_TOO_LARGE', details: {} });
      expect(s.validator.checkResponse('GET', path, 431, b.type, JSON.parse(b.body))).toEqual([]);
    }
    // The other form's envelope is not what the path's form documents.
    expect(s.validator.checkResponse('GET', '/api/v1/learners', 431, a.type, JSON.parse(b431()))).not.toEqual([]);
  });
});

describe('GET /me', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer('memory');
  });
  afterAll(() => s?.close());

  it('tells any valid key its tenant, role, scopes, limits and expiry, in both forms', async () => {
    await s.tenant('me-co', 'starter');
    const viewer = await s.key('me-co', 'viewer', undefined, '2030-01-31');
    const a = await s.call('GET', '/api/v1/me', viewer.key);
    expect(a.status).toBe(200);
    expect(a.body.key).toMatchObject({ id: viewer.id, role: 'viewer', expiresAt: '2030-01-31' });
    expect(a.body.key.scopes).toContain('learners:read');
    expect(a.body.tenant).toMatchObject({ slug: 'me-co', plan: 'starter' });
    expect(a.body.limits.perMinute).toBeGreaterThan(0);
    expect((await s.call('GET', '/api/v1/tenants/me-co/me', viewer.key)).body.key.id).toBe(viewer.id);
    expect((await s.call('GET', '/api/v1/tenants/other/me', viewer.key)).status).toBe(403);
    expect((await s.call('GET', '/api/v1/me')).status).toBe(401);
  });
});

describe('cursors and incremental sync', () => {
  let s: TestServer;
  let a: string;
  let b: string;
  beforeAll(async () => {
    s = await startTestServer('sqlite');
    a = (await s.tenant('sync-a')).key;
    b = (await s.tenant('sync-b')).key;
    const ids = ['9001049818080', '8501015800088', '7311190013080', '8001015009087'];
    for (const [i, idNumber] of ids.entries()) {
      for (const key of [a, b])
        await s.call('POST', '/api/v1/learners', key, {
          firstName: `L${i}`,
          lastName: 'Sync',
          idNumber,
          employeeRef: i % 2 ? 'odd' : 'even',
        });
    }
  });
  afterAll(() => s?.close());

  it('refuses a cursor in another tenant or with other filters, and takes it where it was issued', async () => {
    const first = await s.call('GET', '/api/v1/learners?limit=1&employeeRef=even', a);
    const cursor = encodeURIComponent(first.body.pagination.nextCursor);
    expect((await s.call('GET', `/api/v1/learners?limit=1&employeeRef=even&cursor=${cursor}`, a)).status).toBe(200);
    const elsewhere = await s.call('GET', `/api/v1/learners?limit=1&employeeRef=even&cursor=${cursor}`, b);
    expect(elsewhere.status).toBe(422);
    expect(elsewhere.body.error.details[0].field).toBe('cursor');
    expect((await s.call('GET', `/api/v1/learners?limit=1&employeeRef=odd&cursor=${cursor}`, a)).status).toBe(422);
    expect((await s.call('GET', `/api/v1/learners?limit=1&cursor=${cursor}`, a)).status).toBe(422);
    // The page size may change between pages.
    expect((await s.call('GET', `/api/v1/learners?limit=5&employeeRef=even&cursor=${cursor}`, a)).status).toBe(200);
  });

  it('reads only what changed in a window with updatedFrom/updatedTo', async () => {
    const all = (await s.call('GET', '/api/v1/learners?limit=100', a)).body.data as { id: string; updatedAt: string }[];
    const mark = new Date(Date.parse(all.at(-1)!.updatedAt) + 1).toISOString();
    await new Promise((ok) => setTimeout(ok, 5));
    const changed = all[1]!;
    expect((await s.call('PATCH', `/api/v1/learners/${changed.id}`, a, { department: 'Finance' })).status).toBe(200);
    const since = await s.call('GET', `/api/v1/learners?updatedFrom=${mark}`, a);
    expect(since.body.data.map((l: { id: string }) => l.id)).toEqual([changed.id]);
    const before = await s.call(
      'GET',
      `/v1/tenants/sync-a/learners?updatedTo=${encodeURIComponent(all.at(-1)!.updatedAt)}`,
      a,
    );
    expect(before.body.pagination.total).toBe(3);
    const enrolments = await s.call('GET', `/api/v1/enrolments?updatedFrom=${mark}`, a);
    expect(enrolments.status).toBe(200);
    expect((await s.call('GET', '/api/v1/learners?updatedFrom=2026-02-02&updatedTo=2026-02-01', a)).status).toBe(422);
  });

  it('names every reversed range of a list in one answer, in both forms', async () => {
    const both = 'createdFrom=2026-03-02&createdTo=2026-03-01&updatedFrom=2026-02-02&updatedTo=2026-02-01';
    const formA = await s.call('GET', `/api/v1/learners?${both}`, a);
    expect(formA.status).toBe(422);
    expect(formA.body.error.details.map((d: { field: string }) => d.field)).toEqual(['createdTo', 'updatedTo']);
    const formB = await s.call(
      'GET',
      `/v1/tenants/sync-a/enrolments?startFrom=2026-03-02&startTo=2026-03-01&updatedFrom=2026-02-02&updatedTo=2026-02-01`,
      a,
    );
    expect(formB.status).toBe(400);
    expect(JSON.stringify(formB.body)).toContain('startTo');
    expect(JSON.stringify(formB.body)).toContain('updatedTo');
  });
});
