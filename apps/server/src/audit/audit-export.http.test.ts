import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachStorage } from '@fundi/adapters/testing';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import { enrolledLearner, idNumberFor } from '../testing/training-fixtures.js';

/** Export type `audit`: the trail of a period as CSV, for holders of `audit:read`. */
describeEachStorage(
  'the audit export',
  (_get, kind) => {
    let s: TestServer;
    beforeAll(async () => {
      s = await startTestServer(kind, { worker: {} });
    });
    afterAll(() => s?.close());

    it('writes the period’s entries with actor, origin, changes and the [erased] values; refused without audit:read', async () => {
      const key = (await s.tenant('audit-export')).key;
      const { learnerId } = await enrolledLearner(s, key, '/api/v1', { code: 'AEX', idNumber: idNumberFor(141) });
      expect((await s.call('PATCH', `/api/v1/learners/${learnerId}`, key, { firstName: 'Nomsa' })).status).toBe(200);
      expect((await s.call('DELETE', `/api/v1/learners/${learnerId}`, key)).status).toBe(204);

      const viewer = await s.key('audit-export', 'viewer', ['exports:read']);
      const denied = await s.call('POST', '/api/v1/exports', viewer.key, { type: 'audit' });
      expect(denied.status).toBe(403);

      const today = new Date().toISOString().slice(0, 10);
      const q = await s.call('POST', '/api/v1/exports', key, { type: 'audit', filters: { from: today, to: today } });
      expect(q.status, JSON.stringify(q.body)).toBe(202);
      let e = q.body;
      for (let i = 0; i < 400 && e.status !== 'ready' && e.status !== 'failed'; i++) {
        await new Promise((ok) => setTimeout(ok, 50));
        e = (await s.call('GET', `/api/v1/exports/${q.body.id}`, key)).body;
      }
      expect(e.status, JSON.stringify(e)).toBe('ready');
      const d = await s.call('GET', `/api/v1/exports/${e.id}/download`, key);
      const csv = await (await fetch(d.body.url)).text();
      const lines = csv
        .replace(/^\uFEFF/, '')
        .trim()
        .split(/\r?\n/);
      expect(lines[0]).toBe(
        'id,at,actor_type,actor_id,actor_name,via,ip,action,entity_type,entity_id,learner_id,changes,details',
      );
      const actions = lines.slice(1).map((l) => l.split(',')[7]);
      expect(actions).toEqual(expect.arrayContaining(['learner.erased', 'learner.updated', 'enrolment.created']));
      const updated = lines.find((l) => l.includes(',learner.updated,'))!;
      expect(updated).toContain('[erased]');
      expect(updated).not.toContain('Nomsa');
      expect(updated).toContain(',api_key,');
    });
  },
  ['memory', 'sqlite', 'postgres'],
);
