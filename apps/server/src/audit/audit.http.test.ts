import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachStorage } from '@fundi/adapters/testing';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import { enrolledLearner, formsOf, idNumberFor } from '../testing/training-fixtures.js';

type Entry = {
  id: string;
  action: string;
  entityType: string;
  entityId: string;
  learnerId: string | null;
  actor: { type: string; id: string; name: string | null };
  changes: Record<string, { from: unknown; to: unknown }>;
  origin: { ip: string | null; via: string };
};

describeEachStorage(
  'the audit trail over HTTP',
  (_get, kind) => {
    let s: TestServer;
    beforeAll(async () => {
      s = await startTestServer(kind);
    });
    afterAll(() => s?.close());

    describe.each(formsOf('x').map((f, i) => [f.form, i] as const))('Form %s', (_form, i) => {
      const slug = `audit-${i}`;
      const f = formsOf(slug)[i]!;
      const p = f.prefix;
      let admin: { id: string; key: string };
      let keyId: string;
      let learnerId: string;
      let enrolmentId: string;

      beforeAll(async () => {
        admin = await s.tenant(slug);
        const e = await enrolledLearner(s, admin.key, p, { code: `AUD${i}`, idNumber: idNumberFor(i + 40) });
        learnerId = e.learnerId;
        enrolmentId = e.enrolment.id;
        const u = await s.call('PATCH', `${p}/learners/${learnerId}`, admin.key, {
          firstName: 'Thandeka',
          emailOptOut: true,
        });
        expect(u.status, JSON.stringify(u.body)).toBe(200);
        const st = await s.call('PATCH', `${p}/enrolments/${enrolmentId}/status`, admin.key, {
          status: 'in_progress',
        });
        expect(st.status, JSON.stringify(st.body)).toBe(200);
      });

      const page = async (path: string, key = admin.key) => {
        const r = await s.call('GET', `${p}${path}`, key);
        expect(r.status, JSON.stringify(r.body)).toBe(200);
        return r.body as { data: Entry[]; pagination: Record<string, unknown> };
      };

      it('lists every change newest first, with actor, origin and changed values', async () => {
        const { data } = await page('/audit?limit=100');
        expect(data.map((e) => e.action)).toEqual([
          'enrolment.status_changed',
          'learner.updated',
          'enrolment.created',
          'programme.created',
          'learner.created',
          'api_key.created',
          'tenant.created',
        ]);
        const [status, updated] = data;
        keyId = status!.actor.id;
        expect(status).toMatchObject({
          entityType: 'enrolment',
          entityId: enrolmentId,
          learnerId,
          actor: { type: 'api_key', id: expect.stringMatching(/^key_/), name: expect.any(String) },
          changes: { status: { from: 'enrolled', to: 'in_progress' } },
          origin: { via: 'api', ip: expect.stringContaining('127.0.0.1') },
        });
        expect(updated!.changes).toEqual({
          firstName: { from: 'Thandi', to: 'Thandeka' },
          emailOptOut: { from: false, to: true },
        });
        expect(data.at(-1)).toMatchObject({ actor: { type: 'system', id: 'cli' }, origin: { via: 'cli', ip: null } });
      });

      it('filters by entity, learner, actor, action and time, and pages within the filters', async () => {
        expect((await page(`/audit?entityType=learner`)).data.map((e) => e.action)).toEqual([
          'learner.updated',
          'learner.created',
        ]);
        expect((await page(`/audit?entityId=${enrolmentId}`)).data).toHaveLength(2);
        expect((await page(`/audit?learnerId=${learnerId}`)).data).toHaveLength(4);
        expect((await page(`/audit?actorId=${keyId}`)).data).toHaveLength(5);
        expect((await page(`/audit?action=learner.updated`)).data).toHaveLength(1);
        expect((await page(`/audit?from=2000-01-01&to=2000-12-31`)).data).toHaveLength(0);
        expect((await page(`/audit?to=2999-01-01`)).data).toHaveLength(7);
        const bad = await s.call('GET', `${p}/audit?from=2026-02-01&to=2026-01-01`, admin.key);
        expect(bad.status).toBe(f.invalid);

        const seen: string[] = [];
        let next = `/audit?learnerId=${learnerId}&limit=3`;
        for (let n = 0; n < 5 && next; n++) {
          const b = await page(next);
          seen.push(...b.data.map((e) => e.id));
          const pg = b.pagination as { hasMore: boolean; nextCursor?: string; offset?: number; limit?: number };
          if (!pg.hasMore) break;
          next =
            f.form === 'A'
              ? `/audit?learnerId=${learnerId}&limit=3&cursor=${encodeURIComponent(pg.nextCursor!)}`
              : `/audit?learnerId=${learnerId}&limit=3&offset=${seen.length}`;
        }
        expect(seen).toHaveLength(4);
        expect(new Set(seen).size).toBe(4);
        expect([...seen].sort().reverse()).toEqual(seen);
      });

      it("a learner's history holds their record and their enrolment; unknown learners are 404", async () => {
        const { data } = await page(`/learners/${learnerId}/history`);
        expect(data.map((e) => e.action)).toEqual([
          'enrolment.status_changed',
          'learner.updated',
          'enrolment.created',
          'learner.created',
        ]);
        const none = await s.call('GET', `${p}/learners/lrn_none/history`, admin.key);
        expect(none.status).toBe(404);
        expect(none.body.error.code).toBe(f.codes.notFound);
      });

      it("never shows another tenant's entries", async () => {
        const other = await s.tenant(`audit-other-${i}`);
        const otherPrefix = formsOf(`audit-other-${i}`)[i]!.prefix;
        const r = await s.call('GET', `${otherPrefix}/audit?limit=100`, other.key);
        expect(r.body.data.map((e: Entry) => e.action)).toEqual(['api_key.created', 'tenant.created']);
        const h = await s.call('GET', `${otherPrefix}/learners/${learnerId}/history`, other.key);
        expect(h.status).toBe(404);
      });

      it('is for admins and managers; verifying the chain is for admins', async () => {
        const manager = await s.key(slug, 'manager');
        const viewer = await s.key(slug, 'viewer');
        expect((await s.call('GET', `${p}/audit`, manager.key)).status).toBe(200);
        expect((await s.call('GET', `${p}/audit`, viewer.key)).status).toBe(403);
        expect((await s.call('GET', `${p}/learners/${learnerId}/history`, viewer.key)).status).toBe(403);
        expect((await s.call('GET', `${p}/audit/verify`, manager.key)).status).toBe(403);
        const v = await s.call('GET', `${p}/audit/verify`, admin.key);
        expect(v.body).toEqual({ ok: true, checked: expect.any(Number), firstBreak: null });
        expect(v.body.checked).toBeGreaterThanOrEqual(6);
      });

      it('after erasure the personal values show as [erased]; the entries stay and the chain holds', async () => {
        const er = await s.call('DELETE', `${p}/learners/${learnerId}`, admin.key);
        expect(er.status).toBe(204);
        const { data } = await page(`/learners/${learnerId}/history`);
        expect(data[0]).toMatchObject({ action: 'learner.erased', learnerId });
        const updated = data.find((e) => e.action === 'learner.updated')!;
        expect(updated.changes).toEqual({
          firstName: { from: '[erased]', to: '[erased]' },
          emailOptOut: { from: false, to: true },
        });
        expect(JSON.stringify(data)).not.toContain('Thand');
        expect((await s.call('GET', `${p}/audit/verify`, admin.key)).body.ok).toBe(true);
      });
    });
  },
  ['memory', 'sqlite', 'postgres'],
);
