import { describeEachStorage } from '@fundi/adapters/testing';
import { MAX_JSON_DEPTH } from '@fundi/http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { employee, hrTenant } from '../hr-sync/testing/hr-sync-fixtures.js';
import { idNumberFor } from '../testing/training-fixtures.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';

/** JSON text of `levels` arrays inside one another, around `inner`. */
const nested = (levels: number, inner = '1') => `${'['.repeat(levels)}${inner}${']'.repeat(levels)}`;

/** An HR event whose body nests exactly `depth` levels: the body, `data`, then arrays in `data.notes`. */
function hrEventOf(depth: number, code: string, n: number): string {
  const data = JSON.stringify({ ...employee(n, {}, idNumberFor(810_000 + n)), programmeCode: code });
  return `{"event":"employee.enrolled","data":${data.slice(0, -1)},"notes":${nested(depth - 2)}}}`;
}

/** JSON nested past the limit is invalid input, refused before anything walks it; up to the limit it is taken. */
describeEachStorage('deeply nested JSON bodies', (_get, kind) => {
  let s: TestServer;
  let key: string;
  let hr: Awaited<ReturnType<typeof hrTenant>>;
  beforeAll(async () => {
    s = await startTestServer(kind);
    key = (await s.tenant('deep')).key;
    hr = await hrTenant(s, 'deep-hr');
  });
  afterAll(() => s?.close());

  const learners = async () => (await s.call('GET', '/api/v1/learners?limit=1', key)).body.pagination.total as number;

  it("answers JSON nested 3,000 deep with the form's invalid-input answer naming the body", async () => {
    const before = await learners();
    const body = `{"firstName":"Thandi","lastName":"Nkosi","idNumber":"9001049818080","x":${nested(3000)}}`;
    const a = await s.call('POST', '/api/v1/learners', key, body);
    expect(a.status).toBe(422);
    expect(a.body.error).toMatchObject({
      code: 'validation_error',
      details: [{ field: 'body', message: `nests objects and arrays deeper than ${MAX_JSON_DEPTH} levels` }],
    });
    for (const prefix of ['/api/v1/tenants/deep', '/v1/tenants/deep']) {
      const b = await s.call('POST', `${prefix}/learners`, key, body);
      expect(b.status).toBe(400);
      expect(b.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'body' } });
    }
    // Objects count as arrays do, and an action route that takes no fields reads its body the same way.
    const objects = `${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}`;
    expect((await s.call('POST', '/api/v1/learners', key, objects)).status).toBe(422);
    expect((await s.call('POST', '/api/v1/hr-sync/rotate-key', key, objects)).status).toBe(422);
    expect(await learners()).toBe(before);
  });

  it('refuses it on the HR inbound webhook in both forms; 64 deep passes the body check to the field checks', async () => {
    const deep = hrEventOf(3000, hr.code, 1);
    expect((await hr.post(deep, { form: 'A' })).body.error.details).toEqual([
      { field: 'body', message: `nests objects and arrays deeper than ${MAX_JSON_DEPTH} levels` },
    ]);
    expect((await hr.post(deep)).status).toBe(400);
    expect((await hr.post(deep, { form: 'B1' })).status).toBe(400);
    const over = await hr.post(hrEventOf(MAX_JSON_DEPTH + 1, hr.code, 2));
    expect(over.status).toBe(400);
    expect(over.body.error.details.field).toBe('body');
    // Exactly at the limit the body is read and checked field by field: `notes` is no HR field.
    const within = await hr.post(hrEventOf(MAX_JSON_DEPTH, hr.code, 3));
    expect(within.status).toBe(400);
    expect(within.body.error.details).toEqual({ field: 'notes', reason: 'is not a mapped HR field' });
  });

  it('does not count brackets inside strings', async () => {
    const text = `${'['.repeat(3000)}\\"${'{'.repeat(100)}`;
    const r = await s.call(
      'POST',
      '/api/v1/learners',
      key,
      `{"firstName":"Thandi","lastName":"Nkosi","idNumber":"9001049818080","notes":"${text}"}`,
    );
    expect(r.status).toBe(422);
    expect(r.body.error.details).toEqual([{ field: 'notes', message: 'is not a known field' }]);
  });
});
