import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '@fundi/server/testing';
import { enrolledLearner, errorFields, formsOf, idNumberFor, programmeBody } from '../testing/training-fixtures.js';

describe('programmes over HTTP, both forms [sqlite]', () => {
  let s: TestServer;
  let key: string;
  let otherKey: string;
  let viewer: string;
  beforeAll(async () => {
    s = await startTestServer('sqlite');
    key = (await s.tenant('prog')).key;
    otherKey = (await s.tenant('prog-other')).key;
    viewer = (await s.key('prog', 'viewer')).key;
  });
  afterAll(async () => s.close());

  for (const [i, f] of formsOf('prog').entries()) {
    describe(`Form ${f.form}`, () => {
      const code = `P-${f.form}`;
      let id: string;

      it('creates (201), refuses a duplicate code (409) and invalid or unknown fields', async () => {
        const created = await s.call('POST', `${f.prefix}/programmes`, key, programmeBody(code));
        expect(created.status).toBe(201);
        expect(created.body).toMatchObject({
          code,
          status: 'active',
          nqfLevel: 4,
          modules: [{ code: 'KM-01', kind: 'knowledge', credits: 10 }, {}, {}],
        });
        id = created.body.id;
        const dup = await s.call('POST', `${f.prefix}/programmes`, key, programmeBody(code));
        expect([dup.status, dup.body.error.code]).toEqual([409, f.codes.conflict]);
        const bad = await s.call('POST', `${f.prefix}/programmes`, key, {
          ...programmeBody('X'),
          nqfLevel: 11,
          colour: 'red',
        });
        expect([bad.status, bad.body.error.code]).toEqual([f.invalid, f.codes.invalid]);
        expect(errorFields(bad.body)).toEqual(expect.arrayContaining(['nqfLevel', 'colour']));
        const dupModule = await s.call('POST', `${f.prefix}/programmes`, key, programmeBody('Y', ['A', 'A']));
        expect(dupModule.status).toBe(f.invalid);
        expect(errorFields(dupModule.body)).toEqual(['modules.1.code']);
      });

      it('gets by id and by code; another tenant gets 404', async () => {
        expect((await s.call('GET', `${f.prefix}/programmes/${id}`, key)).body.id).toBe(id);
        expect((await s.call('GET', `${f.prefix}/programmes/${code}`, key)).body.id).toBe(id);
        const foreign = await s.call('GET', `/api/v1/programmes/${id}`, otherKey);
        expect(foreign.status).toBe(404);
        expect((await s.call('GET', `${f.prefix}/programmes/prg_00000000000000000000000000`, key)).status).toBe(404);
      });

      it("lists in the form's envelope with filters", async () => {
        const list = await s.call('GET', `${f.prefix}/programmes?type=skills_programme&status=active&limit=1`, key);
        expect(list.status).toBe(200);
        expect(list.body.data).toHaveLength(1);
        expect(list.body.pagination).toMatchObject(
          f.form === 'A' ? { hasMore: expect.any(Boolean), total: expect.any(Number) } : { limit: 1, offset: 0 },
        );
        expect((await s.call('GET', `${f.prefix}/programmes?status=gone`, key)).status).toBe(f.invalid);
      });

      it('updates partially (200), refusing a code change and 404 for another tenant', async () => {
        const patched = await s.call('PATCH', `${f.prefix}/programmes/${id}`, key, { name: 'Renamed', nqfLevel: null });
        expect(patched.status).toBe(200);
        expect(patched.body).toMatchObject({ name: 'Renamed', nqfLevel: null, code });
        expect((await s.call('PATCH', `${f.prefix}/programmes/${id}`, key, { code: 'NEW' })).status).toBe(f.invalid);
        expect((await s.call('PATCH', `/api/v1/programmes/${id}`, otherKey, { name: 'x' })).status).toBe(404);
      });

      it('retires (200) and then refuses enrolments; deletes only unused programmes (204 / 409)', async () => {
        const retired = await s.call('POST', `${f.prefix}/programmes/${id}/retire`, key);
        expect([retired.status, retired.body.status]).toEqual([200, 'retired']);
        const learner = await s.call('POST', `${f.prefix}/learners`, key, {
          firstName: 'A',
          lastName: 'B',
          idNumber: idNumberFor(i * 10),
        });
        expect(learner.status).toBe(201);
        const refused = await s.call('POST', `${f.prefix}/enrolments`, key, {
          learnerId: learner.body.id,
          programmeCode: code,
          startDate: '2026-01-01',
        });
        expect([refused.status, refused.body.error.code]).toEqual([409, f.codes.conflict]);
        expect((await s.call('DELETE', `/api/v1/programmes/${id}`, otherKey)).status).toBe(404);
        const deleted = await s.call('DELETE', `${f.prefix}/programmes/${id}`, key);
        expect(deleted.status).toBe(204);
        expect((await s.call('GET', `${f.prefix}/programmes/${id}`, key)).status).toBe(404);
        const used = await enrolledLearner(s, key, f.prefix, {
          code: `U-${f.form}`,
          idNumber: idNumberFor(i * 10 + 1),
        });
        const inUse = await s.call('DELETE', `${f.prefix}/programmes/${used.programme.id}`, key);
        expect([inUse.status, inUse.body.error.code]).toEqual([409, f.codes.conflict]);
      });

      it("needs a key (401), the scope (403) and the key's own slug (403)", async () => {
        expect((await s.call('GET', `${f.prefix}/programmes`)).status).toBe(401);
        const denied = await s.call('POST', `${f.prefix}/programmes`, viewer, programmeBody('V'));
        expect([denied.status, denied.body.error.code]).toEqual([403, f.codes.forbidden]);
        expect((await s.call('GET', `${f.prefix}/programmes`, viewer)).status).toBe(200);
        if (f.form !== 'A') expect((await s.call('GET', `${f.prefix}/programmes`, otherKey)).status).toBe(403);
      });
    });
  }
});
