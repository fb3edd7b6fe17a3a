import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { describeEachStorage } from '@fundi/adapters/testing';
import type { SqlDb } from '@fundi/adapters';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import { enrolledLearner, idNumberFor } from '../testing/training-fixtures.js';

type Row = { id: string; seq: number | string; details: string };

/** Rows changed in the database behind the service's back are found by `GET /audit/verify`. */
describeEachStorage(
  'the audit chain against changes made in the database',
  (_get, kind) => {
    let s: TestServer;
    let db: SqlDb;
    let n = 0;
    let slug: string;
    let key: string;
    let learnerId: string;
    const rows = async () =>
      (
        await db.all<Row>(
          'SELECT a.id, a.seq, a.details FROM audit_log a JOIN tenants t ON t.id = a.tenant_id WHERE t.slug = ? ORDER BY a.seq',
          [slug],
        )
      ).map((r) => ({ ...r, seq: Number(r.seq) }));
    const verify = async () => {
      const r = await s.call('GET', '/api/v1/audit/verify', key);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return r.body as { ok: boolean; checked: number; firstBreak: { id: string; seq: number; reason: string } | null };
    };

    beforeAll(async () => {
      s = await startTestServer(kind);
      db = s.storage.db!;
    });
    afterAll(() => s?.close());
    beforeEach(async () => {
      slug = `tamper-${n++}`;
      key = (await s.tenant(slug)).key;
      learnerId = (await enrolledLearner(s, key, '/api/v1', { code: 'TMP', idNumber: idNumberFor(n + 70) })).learnerId;
      const u = await s.call('PATCH', `/api/v1/learners/${learnerId}`, key, { lastName: 'Mokoena' });
      expect(u.status).toBe(200);
      await s.tenant(`${slug}-other`);
      expect(await verify()).toEqual({ ok: true, checked: 6, firstBreak: null });
    });

    it('reports an entry whose facts were edited', async () => {
      const target = (await rows())[2]!;
      await db.run('UPDATE audit_log SET details = ? WHERE id = ?', [
        target.details.replace('}', ',"x":1}'),
        target.id,
      ]);
      expect(await verify()).toEqual({
        ok: false,
        checked: 2,
        firstBreak: { id: target.id, seq: 3, reason: 'hash_mismatch' },
      });
    });

    it('reports an entry whose actor was changed and its hash recomputed by someone without the chain', async () => {
      const target = (await rows())[1]!;
      await db.run("UPDATE audit_log SET actor = 'key_someone_else', hash = ? WHERE id = ?", [
        'f'.repeat(64),
        target.id,
      ]);
      expect((await verify()).firstBreak).toMatchObject({ id: target.id, reason: 'hash_mismatch' });
    });

    it('reports a removed entry, and entries removed from the end', async () => {
      const all = await rows();
      await db.run('DELETE FROM audit_log WHERE id = ?', [all[3]!.id]);
      expect(await verify()).toMatchObject({
        ok: false,
        checked: 3,
        firstBreak: { id: all[4]!.id, reason: 'sequence_gap' },
      });
      await db.run('DELETE FROM audit_log WHERE seq >= 4 AND tenant_id = (SELECT id FROM tenants WHERE slug = ?)', [
        slug,
      ]);
      expect(await verify()).toMatchObject({ ok: false, checked: 3, firstBreak: { reason: 'head_mismatch' } });
    });

    it("reports personal values changed apart from their entry; erasure's removal of them is no break", async () => {
      const [p] = await db.all<{ entry_id: string }>('SELECT entry_id FROM audit_personal WHERE learner_id = ?', [
        learnerId,
      ]);
      await db.run('UPDATE audit_personal SET data = ? WHERE entry_id = ?', [
        JSON.stringify({ lastName: { from: 'Nkosi', to: 'Someone' } }),
        p!.entry_id,
      ]);
      expect((await verify()).firstBreak).toMatchObject({ id: p!.entry_id, reason: 'personal_values_altered' });
      expect((await s.call('DELETE', `/api/v1/learners/${learnerId}`, key)).status).toBe(204);
      expect(await verify()).toEqual({ ok: true, checked: 7, firstBreak: null });
    });
  },
  ['sqlite', 'postgres'],
);
