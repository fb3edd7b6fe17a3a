import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachStorage } from '@fundi/adapters/testing';
import { hrTenant, employee } from '../hr-sync/testing/hr-sync-fixtures.js';
import { LEARNER_HEADER, learnerLine, settled, upload } from '../testing/import-fixtures.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import { idNumberFor } from '../testing/training-fixtures.js';

type Entry = { action: string; actor: { type: string; id: string }; origin: { via: string; ip: string | null } };

/** What imports and HR inbound events change is audited as coming from them, under the right actor. */
describeEachStorage(
  'audit origins of imports and HR sync',
  (_get, kind) => {
    let s: TestServer;
    beforeAll(async () => {
      s = await startTestServer(kind, { worker: {} });
    });
    afterAll(() => s?.close());

    const audit = async (key: string, q: string) =>
      (await s.call('GET', `/api/v1/audit?limit=100&${q}`, key)).body.data as Entry[];

    it('an import’s learners are audited via import, by the key that confirmed it', async () => {
      const admin = (await s.tenant('origin-import')).key;
      const csv = [LEARNER_HEADER, learnerLine(7001, { idNumber: idNumberFor(7001) })].join('\n');
      const r = await upload(s, admin, '/api/v1', 'learners', csv);
      expect(r.status, JSON.stringify(r.body)).toBe(202);
      await settled(s, admin, '/api/v1', r.body.id, ['validated']);
      expect((await s.call('POST', `/api/v1/imports/${r.body.id}/confirm`, admin)).status).toBe(202);
      await settled(s, admin, '/api/v1', r.body.id, ['completed']);
      const written = (await audit(admin, 'entityType=import')).filter((e) => e.origin.via === 'import');
      expect(written.length).toBeGreaterThan(0);
      for (const e of written) expect(e.actor).toMatchObject({ type: 'api_key', id: expect.stringMatching(/^key_/) });
      const confirm = (await audit(admin, 'entityType=import')).find((e) => e.origin.via === 'api');
      expect(confirm?.origin.ip).toEqual(expect.stringContaining('127.0.0.1'));
    });

    it('HR inbound changes are audited via hr-sync, by HR sync, from the address of the call', async () => {
      const t = await hrTenant(s, 'origin-hr');
      const r = await t.post({
        id: 'hr-origin-1',
        event: 'employee.enrolled',
        data: { ...employee(1, {}, idNumberFor(7002)), programmeCode: t.code },
      });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      const entries = await audit(t.admin, `learnerId=${r.body.learnerId}`);
      expect(entries.map((e) => e.action)).toEqual(expect.arrayContaining(['learner.created', 'enrolment.created']));
      for (const e of entries.filter((x) => x.action === 'learner.created' || x.action === 'enrolment.created'))
        expect(e).toMatchObject({
          actor: { type: 'system', id: 'hr-sync', name: 'HR sync' },
          origin: { via: 'hr-sync', ip: expect.stringContaining('127.0.0.1') },
        });

      // The audit export names the actor and its origin as the API does.
      const today = new Date().toISOString().slice(0, 10);
      const q = await s.call('POST', '/api/v1/exports', t.admin, {
        type: 'audit',
        filters: { from: today, to: today },
      });
      expect(q.status, JSON.stringify(q.body)).toBe(202);
      let e = q.body;
      for (let i = 0; i < 400 && e.status !== 'ready' && e.status !== 'failed'; i++) {
        await new Promise((ok) => setTimeout(ok, 50));
        e = (await s.call('GET', `/api/v1/exports/${q.body.id}`, t.admin)).body;
      }
      expect(e.status, JSON.stringify(e)).toBe('ready');
      const d = await s.call('GET', `/api/v1/exports/${e.id}/download`, t.admin);
      const csv = await (await fetch(d.body.url)).text();
      const created = csv.split(/\r?\n/).find((l) => l.includes(',learner.created,'));
      expect(created).toContain(',system,hr-sync,HR sync,hr-sync,');
    });
  },
  ['memory', 'sqlite', 'postgres'],
);
