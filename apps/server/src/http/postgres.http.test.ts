import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reposOf } from '../capabilities/index.js';
import { postgresAvailable } from '@fundi/adapters/testing';
import { aLearnerInput } from '@fundi/domain/testing';
import { startTestServer, type TestServer } from '@fundi/server/testing';
import { FORMS } from '../testing/http-forms.js';

const pgUp = await postgresAvailable();

/** The storage-sensitive parts of the learner API, on Postgres (the wide suite runs on SQLite). */
(pgUp ? describe : describe.skip)('learners over HTTP on Postgres', () => {
  let s: TestServer;
  let a: string;
  let b: string;
  beforeAll(async () => {
    s = await startTestServer('postgres');
    a = (await s.tenant('pg-a')).key;
    b = (await s.tenant('pg-b')).key;
  });
  afterAll(async () => s?.close());

  it.each(FORMS.map((f) => [f.name, f] as const))(
    '%s: 409s, isolation and POPIA erasure down to the row',
    async (_n, form) => {
      const url = form.learners('pg-a');
      const made = await s.call(
        'POST',
        url,
        a,
        aLearnerInput({ email: `Erase.${form.name.length}@Example.co.za`, mobile: '0821234567' }),
      );
      expect(made.status).toBe(201);
      const l = made.body;
      expect((await s.call('POST', url, a, aLearnerInput({ idNumber: l.idNumber }))).status).toBe(409);
      expect((await s.call('POST', url, a, aLearnerInput({ email: l.email.toUpperCase() }))).status).toBe(409);
      for (const method of ['GET', 'PATCH', 'DELETE']) {
        expect(
          (
            await s.call(
              method,
              `${form.learners('pg-b')}/${l.id}`,
              b,
              method === 'PATCH' ? { firstName: 'X' } : undefined,
            )
          ).status,
        ).toBe(404);
      }
      expect((await s.call('DELETE', `${url}/${l.id}`, a)).status).toBe(204);
      expect((await s.call('GET', `${url}/${l.id}`, a)).status).toBe(404);
      const listed = await s.call('GET', `${url}?search=${encodeURIComponent(l.email)}`, a);
      expect(listed.body.data).toEqual([]);
      const row = await s.storage.db!.first<Record<string, unknown>>('SELECT * FROM learners WHERE id = ?', [l.id]);
      for (const c of ['first_name', 'last_name', 'id_number', 'email', 'email_lower', 'mobile', 'date_of_birth'])
        expect(row![c], c).toBeNull();
      const tenantId = (await reposOf(s.container).tenants.findBySlug('pg-a'))!.id;
      await expect(
        reposOf(s.container)
          .audit.list(tenantId, { resourceId: l.id, limit: 5 })
          .then((x) => x.map((e) => e.action)),
      ).resolves.toContain('learner.erased');
      expect((await s.call('POST', url, a, aLearnerInput({ idNumber: l.idNumber, email: l.email }))).status).toBe(201);
    },
  );

  it('pages by cursor and offset on Postgres', async () => {
    const key = (await s.tenant('pg-paging')).key;
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push((await s.call('POST', '/api/v1/learners', key, aLearnerInput())).body.id);
    const p1 = await s.call('GET', '/api/v1/learners?limit=3', key);
    const p2 = await s.call(
      'GET',
      `/api/v1/learners?limit=3&cursor=${encodeURIComponent(p1.body.pagination.nextCursor)}`,
      key,
    );
    expect([...p1.body.data, ...p2.body.data].map((l: { id: string }) => l.id)).toEqual(made);
    expect(p2.body.pagination).toEqual({ hasMore: false, nextCursor: null, total: 5 });
    const o = await s.call('GET', '/v1/tenants/pg-paging/learners?limit=2&offset=4', key);
    expect(o.body.pagination).toEqual({ total: 5, limit: 2, offset: 4, hasMore: false });
    expect(o.body.data.map((l: { id: string }) => l.id)).toEqual(made.slice(4));
  });
});
