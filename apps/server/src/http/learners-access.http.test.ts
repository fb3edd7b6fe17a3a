import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tenants } from '../capabilities/index.js';
import { useCasesOf } from '@fundi/adapters';
import { FixedClock } from '@fundi/testing';
import { aLearnerInput } from '@fundi/domain/testing';
import { startTestServer, type TestServer } from '@fundi/server/testing';
import { FORMS, type FormUnderTest } from '../testing/http-forms.js';

// Who may do what to learners: 401, 403 and tenant isolation in every form (docs/api.md).
const clock = new FixedClock(new Date('2026-06-01T08:00:00.000Z'));
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer('sqlite', { clock });
});
afterAll(async () => s?.close());

describe.each(FORMS.map((f, i) => [f.name, f, i] as const))(
  'learner access over HTTP: %s',
  (_name, form: FormUnderTest, i) => {
    const slug = `acme-${i}`;
    const otherSlug = `other-${i}`;
    let admin: string;
    let otherAdmin: string;
    const url = (suffix = '') => form.learners(slug) + suffix;
    const create = (body: Record<string, unknown>, key = admin) => s.call('POST', url(), key, body);

    beforeAll(async () => {
      admin = (await s.tenant(slug)).key;
      otherAdmin = (await s.tenant(otherSlug)).key;
    });

    it('401 without a key, with a malformed header, an unknown key, and for every operation', async () => {
      for (const headers of [
        {} as Record<string, string>,
        { authorization: 'Basic dXNlcjpwYXNz' },
        { authorization: 'Bearer' },
        { authorization: `Bearer${admin}` },
        { authorization: 'Bearer fnd_live_unknownunknownunknownunknown' },
      ]) {
        const r = await s.call('GET', url(), undefined, undefined, headers);
        expect(r.status, JSON.stringify(headers)).toBe(401);
        expect(r.body.error.code).toBe(form.codes.unauthorized);
      }
      for (const [method, path] of [
        ['POST', ''],
        ['GET', '/lrn_x'],
        ['PATCH', '/lrn_x'],
        ['DELETE', '/lrn_x'],
      ] as const) {
        expect(
          (await s.call(method, url(path), 'fnd_live_nope', method === 'POST' || method === 'PATCH' ? {} : undefined))
            .status,
        ).toBe(401);
      }
    });

    it('401 for a revoked key', async () => {
      const k = await s.key(slug, 'manager');
      expect((await s.call('GET', url(), k.key)).status).toBe(200);
      await useCasesOf(s.container, tenants).revokeApiKey.execute(slug, k.id);
      const r = await s.call('GET', url(), k.key);
      expect(r.status).toBe(401);
      expect(r.body.error.code).toBe(form.codes.unauthorized);
    });

    it('401 for an expired key (usable through its last day)', async () => {
      const k = await s.key(slug, 'manager', undefined, '2026-06-02');
      clock.set('2026-06-02T23:59:00.000Z');
      expect((await s.call('GET', url(), k.key)).status).toBe(200);
      clock.set('2026-06-03T00:00:01.000Z');
      const r = await s.call('GET', url(), k.key);
      clock.set('2026-06-01T08:00:00.000Z');
      expect(r.status).toBe(401);
      expect(r.body.error.code).toBe(form.codes.unauthorized);
    });

    it('403 for a key without the needed scope', async () => {
      const made = (await create(aLearnerInput())).body;
      const viewer = (await s.key(slug, 'viewer')).key;
      const readOnly = (await s.key(slug, 'manager', ['learners:read'])).key;
      expect((await s.call('GET', url(`/${made.id}`), viewer)).status).toBe(200);
      for (const [method, path, key, body] of [
        ['POST', '', viewer, aLearnerInput()],
        ['PATCH', `/${made.id}`, viewer, { firstName: 'X' }],
        ['DELETE', `/${made.id}`, viewer, undefined],
        ['DELETE', `/${made.id}`, readOnly, undefined],
        ['POST', '', readOnly, aLearnerInput()],
      ] as const) {
        const r = await s.call(method, url(path), key, body);
        expect(r.status, `${method} ${path}`).toBe(403);
        expect(r.body.error.code).toBe(form.codes.forbidden);
      }
      expect((await s.call('GET', url(`/${made.id}`), admin)).status).toBe(200);
    });

    it("tenant isolation: another tenant's key never sees, changes or deletes the learner", async () => {
      const made = (await create(aLearnerInput({ firstName: 'Isolated', employeeRef: `ISO-${i}` }))).body;
      const theirs = (path = '') => form.learners(otherSlug) + path;
      for (const [method, body] of [
        ['GET', undefined],
        ['PATCH', { firstName: 'Hacked' }],
        ['DELETE', undefined],
      ] as const) {
        const r = await s.call(method, theirs(`/${made.id}`), otherAdmin, body);
        expect(r.status, method).toBe(404);
        expect(r.body.error.code).toBe(form.codes.notFound);
      }
      const list = await s.call('GET', theirs(`?limit=100&search=Isolated`), otherAdmin);
      expect(list.status).toBe(200);
      expect(list.body.data).toEqual([]);
      expect(list.body.pagination.total).toBe(0);
      await expect(s.call('GET', url(`/${made.id}`), admin).then((r) => r.body.firstName)).resolves.toBe('Isolated');
    });
  },
);

describe.each([FORMS[1]!, FORMS[2]!])('Form B specifics: $name', (form) => {
  let key: string;
  beforeAll(async () => {
    key = (await s.tenant(`bspec-${form.learners('x').length}`)).key;
    await s.tenant(`bspec-victim-${form.learners('x').length}`);
  });

  it("403 FORBIDDEN for a key used under another (or unknown) tenant's slug, for every operation", async () => {
    for (const slug of [`bspec-victim-${form.learners('x').length}`, 'no-such-tenant']) {
      for (const [method, path, body] of [
        ['GET', '', undefined],
        ['POST', '', aLearnerInput()],
        ['GET', '/lrn_x', undefined],
        ['PATCH', '/lrn_x', {}],
        ['DELETE', '/lrn_x', undefined],
      ] as const) {
        const r = await s.call(method, form.learners(slug) + path, key, body);
        expect(r.status, `${method} ${slug}${path}`).toBe(403);
        expect(r.body.error).toMatchObject({ code: 'FORBIDDEN', details: {} });
      }
    }
  });

  it('details holds the first failing field and errors lists them all', async () => {
    const r = await s.call(
      'POST',
      form.learners(`bspec-${form.learners('x').length}`),
      key,
      aLearnerInput({ idNumber: '123', email: 'bad', mobile: '1' }),
    );
    expect(r.status).toBe(400);
    expect(r.body.error.details).toEqual(r.body.error.errors[0]);
    expect(r.body.error.errors.map((e: { field: string }) => e.field).sort()).toEqual(['email', 'idNumber', 'mobile']);
    const one = await s.call(
      'POST',
      form.learners(`bspec-${form.learners('x').length}`),
      key,
      aLearnerInput({ email: 'bad' }),
    );
    expect(one.body.error.details).toEqual({ field: 'email', reason: expect.any(String) });
    expect(one.body.error).not.toHaveProperty('errors');
  });
});
