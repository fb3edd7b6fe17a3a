import { expect, it, vi } from 'vitest';
import { describeEachStorage } from '@fundi/adapters/testing';
import { PDF, PNG } from '../evidence/evidence-http-fixture.js';
import { csrfOf } from '../testing/dashboard-client.js';
import { programmeBody } from '../testing/training-fixtures.js';
import { portalServers } from './portal-http-fixture.js';
import { postFile } from './portal-upload-fixture.js';

vi.setConfig({ testTimeout: 60_000 });

describeEachStorage('learner portal over HTTP: a retried upload stores its file once', (_get, kind) => {
  const t = portalServers(kind, 'pur');

  const keysOf = (page: string) => [...page.matchAll(/name="uploadKey" value="([\w-]+)"/g)].map((m) => m[1]!);

  it('the same form key twice makes one evidence record and one new version; another learner cannot use it', async () => {
    const w = await t.world();
    const code = `P-RETRY${w.n}`;
    expect((await t.s.call('POST', '/api/v1/programmes', w.key, programmeBody(code))).status).toBe(201);
    const a = await t.signedIn(w, 1);
    const b = await t.signedIn(w, 2);
    for (const l of [a, b])
      expect(
        (
          await t.s.call('POST', '/api/v1/enrolments', w.key, {
            learnerId: l.id,
            programmeCode: code,
            startDate: '2026-01-10',
          })
        ).status,
      ).toBe(201);
    const home = await a.web.get('/learn');
    expect(home.text).toContain('<script src="/learn/assets/upload.js" defer></script>');
    const [key] = keysOf(home.text);
    expect(key).toMatch(/^[\w-]{32}$/);
    const fields = { _csrf: csrfOf(home.text), uploadKey: key!, moduleId: 'KM-01', evidenceType: 'portfolio' };
    // The first attempt's answer was lost on the way: the browser sends the same form again.
    for (let i = 0; i < 2; i++) {
      const up = await postFile(a.web, '/learn/evidence', fields, { name: 'site-photo.png', data: PNG });
      expect([up.status, up.location]).toEqual([303, '/learn?uploaded=1']);
    }
    const evidence = async () =>
      (await t.s.call('GET', `/api/v1/evidence?learnerId=${a.id}`, w.key)).body.data as {
        id: string;
        version: number;
      }[];
    expect((await evidence()).length).toBe(1);
    // Another learner's session with the key is refused and stores nothing.
    const homeB = await b.web.get('/learn');
    const stolen = await postFile(
      b.web,
      '/learn/evidence',
      { ...fields, _csrf: csrfOf(homeB.text) },
      { name: 'x.png', data: PNG },
    );
    expect(stolen.status).toBe(400);
    expect(((await t.s.call('GET', `/api/v1/evidence?learnerId=${b.id}`, w.key)).body.data as unknown[]).length).toBe(
      0,
    );

    const [e] = await evidence();
    expect(
      (
        await t.s.call('PATCH', `/api/v1/evidence/${e!.id}`, w.key, {
          status: 'revision_requested',
          feedback: 'Please sign page 4.',
        })
      ).status,
    ).toBe(200);
    const revise = await a.web.get('/learn');
    const versionForm = revise.text.indexOf(`/learn/evidence/${e!.id}/versions`);
    expect(versionForm).toBeGreaterThan(0);
    // The version form's key is the first after its action.
    const vKey = /name="uploadKey" value="([\w-]+)"/.exec(revise.text.slice(versionForm))![1]!;
    expect(vKey).not.toBe(key);
    for (let i = 0; i < 2; i++) {
      const v = await postFile(
        a.web,
        `/learn/evidence/${e!.id}/versions`,
        { _csrf: csrfOf(revise.text), uploadKey: vKey },
        { name: 'workbook-signed.pdf', data: PDF },
      );
      expect([v.status, v.location], v.text).toEqual([303, '/learn?uploaded=1']);
    }
    const after = await evidence();
    expect([after.length, after[0]!.version]).toEqual([1, 2]);
    // A refused attempt gives its key back: the same key works once the problem is fixed.
    const fresh = keysOf((await a.web.get('/learn')).text)[0]!;
    const bad = await postFile(
      a.web,
      '/learn/evidence',
      { ...fields, uploadKey: fresh, moduleId: 'NOPE-01' },
      { name: 'a.png', data: PNG },
    );
    expect(bad.status).toBeGreaterThanOrEqual(400);
    const good = await postFile(
      a.web,
      '/learn/evidence',
      { ...fields, uploadKey: fresh },
      { name: 'a.png', data: PNG },
    );
    expect(good.status, good.text).toBe(303);
    expect((await evidence()).length).toBe(2);
  });

  it('serves the upload script to the pages under the portal policy', async () => {
    const res = await fetch(`${t.s.url}/learn/assets/upload.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('javascript');
    const js = await res.text();
    expect(js).toContain('form[data-retry]');
    expect(js).toContain('Trying again in');
  });
});
