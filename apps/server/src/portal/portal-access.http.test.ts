import { expect, it, vi } from 'vitest';
import { describeEachStorage } from '@fundi/adapters/testing';
import { PDF, PNG } from '../evidence/evidence-http-fixture.js';
import { csrfOf } from '../testing/dashboard-client.js';
import { programmeBody } from '../testing/training-fixtures.js';
import { reposOf } from '../capabilities/index.js';
import { portalServers } from './portal-http-fixture.js';
import { postFile } from './portal-upload-fixture.js';

vi.setConfig({ testTimeout: 60_000 });

describeEachStorage('learner portal over HTTP: own records only, uploads, details', (_get, kind) => {
  const t = portalServers(kind, 'pac');

  /** Two signed-in learners of one tenant, each enrolled in the same programme. */
  async function twoLearners() {
    const w = await t.world();
    const code = `P-PORT${w.n}`;
    expect((await t.s.call('POST', '/api/v1/programmes', w.key, programmeBody(code))).status).toBe(201);
    const a = await t.signedIn(w, 1);
    const b = await t.signedIn(w, 2);
    for (const l of [a, b]) {
      const e = await t.s.call('POST', '/api/v1/enrolments', w.key, {
        learnerId: l.id,
        programmeCode: code,
        startDate: '2026-01-10',
      });
      expect(e.status, JSON.stringify(e.body)).toBe(201);
    }
    return { w, a, b, code };
  }

  const evidenceOf = async (key: string, learnerId: string) => {
    const r = await t.s.call('GET', `/api/v1/evidence?learnerId=${learnerId}`, key);
    expect(r.status).toBe(200);
    return r.body.data as { id: string; status: string; version: number; filename: string; uploadedBy: unknown }[];
  };

  it('uploads a photo and a PDF for a module, and a new version after a revision request', async () => {
    const { w, a } = await twoLearners();
    const home = await a.web.get('/learn');
    expect(home.status).toBe(200);
    expect(home.text).toContain('0 of 3 modules competent');
    const csrf = csrfOf(home.text);
    for (const [name, data] of [
      ['site-photo.png', PNG],
      ['workbook.pdf', PDF],
    ] as const) {
      const up = await postFile(
        a.web,
        '/learn/evidence',
        { _csrf: csrf, moduleId: 'KM-01', evidenceType: 'portfolio' },
        {
          name,
          data,
        },
      );
      expect(up.status, up.text).toBe(303);
    }
    const mine = await evidenceOf(w.key, a.id);
    expect(mine.map((e) => [e.filename, e.status]).sort()).toEqual([
      ['site-photo.png', 'submitted'],
      ['workbook.pdf', 'submitted'],
    ]);
    expect(mine[0]!.uploadedBy).toEqual({ type: 'learner', id: a.id, name: 'Lerato1 Mokoena' });
    const pdf = mine.find((e) => e.filename === 'workbook.pdf')!;
    const review = await t.s.call('PATCH', `/api/v1/evidence/${pdf.id}`, w.key, {
      status: 'revision_requested',
      feedback: 'Please sign page 4.',
    });
    expect(review.status, JSON.stringify(review.body)).toBe(200);
    const after = await a.web.get('/learn');
    expect(after.text).toContain('revision requested');
    expect(after.text).toContain('Please sign page 4.');
    expect(after.text).toContain(`/learn/evidence/${pdf.id}/versions`);
    const v2 = await postFile(
      a.web,
      `/learn/evidence/${pdf.id}/versions`,
      { _csrf: csrf },
      { name: 'workbook-signed.pdf', data: PDF },
    );
    expect(v2.status, v2.text).toBe(303);
    const again = (await evidenceOf(w.key, a.id)).find((e) => e.id === pdf.id)!;
    expect([again.version, again.status]).toEqual([2, 'submitted']);
  });

  it("refuses every route with another learner's records, and a forged or missing form token", async () => {
    const { w, a, b } = await twoLearners();
    const homeA = await a.web.get('/learn');
    const up = await postFile(
      a.web,
      '/learn/evidence',
      { _csrf: csrfOf(homeA.text), moduleId: 'KM-01' },
      { name: 'a.pdf', data: PDF },
    );
    expect(up.status).toBe(303);
    const [ev] = await evidenceOf(w.key, a.id);
    await t.s.call('PATCH', `/api/v1/evidence/${ev!.id}`, w.key, { status: 'revision_requested', feedback: 'x' });
    // B sees nothing of A's, and cannot post a version of A's evidence (404, nothing stored).
    const homeB = await b.web.get('/learn');
    expect(homeB.text).not.toContain('a.pdf');
    expect(homeB.text).not.toContain(ev!.id);
    const cross = await postFile(
      b.web,
      `/learn/evidence/${ev!.id}/versions`,
      { _csrf: csrfOf(homeB.text) },
      { name: 'b.pdf', data: PDF },
    );
    expect(cross.status).toBe(404);
    expect((await evidenceOf(w.key, a.id))[0]!.version).toBe(1);
    // B's session with A's form token, and without one: refused, nothing written.
    const forged = await postFile(
      b.web,
      '/learn/evidence',
      { _csrf: csrfOf(homeA.text), moduleId: 'KM-01' },
      { name: 'f.pdf', data: PDF },
    );
    expect(forged.status).toBe(403);
    expect((await b.web.post('/learn/details', { email: 'hijack@example.org' })).status).toBe(403);
    expect(await evidenceOf(w.key, b.id)).toEqual([]);
    // A learner id in a form or query names nothing: the session's learner is always the one used.
    const withId = await postFile(
      b.web,
      '/learn/evidence',
      { _csrf: csrfOf(homeB.text), moduleId: 'KM-01', learnerId: a.id },
      { name: 'mine.pdf', data: PDF },
    );
    expect(withId.status).toBe(303);
    expect((await evidenceOf(w.key, a.id)).map((e) => e.filename)).toEqual(['a.pdf']);
    expect((await evidenceOf(w.key, b.id)).map((e) => e.filename)).toEqual(['mine.pdf']);
    const details = await b.web.get(`/learn/details?learnerId=${a.id}`);
    expect(details.text).toContain(`l2-${w.slug}@example.org`);
    expect(details.text).not.toContain(`l1-${w.slug}@example.org`);
    // Logbooks: A's entry is A's; B's page and B's submit never touch it.
    const entry = await t.s.call('POST', '/api/v1/logbook-entries', w.key, {
      learnerId: a.id,
      moduleCode: 'WM-01',
      date: '2026-03-02',
      hours: 8,
      activity: 'A-ONLY-ACTIVITY',
      workplace: 'Site A',
      supervisor: { name: 'Boss A', email: 'boss-a@site.example' },
    });
    expect(entry.status, JSON.stringify(entry.body)).toBe(201);
    const logB = await b.web.get('/learn/logbook');
    expect(logB.status).toBe(200);
    expect(logB.text).not.toContain('A-ONLY-ACTIVITY');
    expect((await b.web.post('/learn/logbook/submit', { _csrf: csrfOf(logB.text), moduleCode: 'WM-01' })).status).toBe(
      404,
    );
    expect((await t.s.call('GET', `/api/v1/logbook-entries/${entry.body.id}`, w.key)).body.status).toBe('draft');
    expect((await a.web.get('/learn/logbook')).text).toContain('A-ONLY-ACTIVITY');

    expect((await b.web.get('/learn/learners')).status).toBe(404);
    expect(
      (
        await t.s.call('GET', `/api/v1/learners/${a.id}`, undefined, undefined, {
          cookie: `fundi_learner=${b.web.cookies.get('fundi_learner')}`,
        })
      ).status,
    ).toBe(401);
  });

  it("lists the learner's own statements, downloads through the signed URL, shows a revoked one as revoked", async () => {
    const { w, a, b } = await twoLearners();
    expect((await t.s.call('PUT', '/api/v1/settings/regulator', w.key, { sdpCode: `SDP${w.n}0042` })).status).toBe(200);
    const enrolment = (await t.s.call('GET', `/api/v1/enrolments?learnerId=${a.id}`, w.key)).body.data[0] as {
      id: string;
    };
    for (const m of ['KM-01', 'PM-01', 'WM-01']) {
      const r = await t.s.call('POST', '/api/v1/assessments', w.key, {
        learnerId: a.id,
        moduleCode: m,
        enrolmentId: enrolment.id,
        assessmentType: 'summative',
        outcome: 'C',
        assessmentDate: '2026-03-01',
      });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
    }
    const issue = () => t.s.call('POST', `/api/v1/learners/${a.id}/statements`, w.key, { enrolmentId: enrolment.id });
    const first = await issue();
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const second = await issue();
    expect(second.status).toBe(201);
    const revoke = `/api/v1/learners/${a.id}/statements/${first.body.id}/revoke`;
    expect((await t.s.call('POST', revoke, w.key, { reason: 'Issued twice' })).status).toBe(200);

    const page = await a.web.get('/learn/statements');
    expect(page.status).toBe(200);
    expect(page.text).toContain('Competent in every module');
    expect(page.text.match(/Revoked: this statement is no longer valid/g)).toHaveLength(1);
    expect(page.text).toContain(`/learn/statements/${second.body.id}/download`);
    expect(page.text).not.toContain(`/learn/statements/${first.body.id}/download`);
    expect(page.text).toContain(`/verify/${second.body.verificationCode}">${second.body.verificationCode}</a>`);

    const grant = await a.web.get(`/learn/statements/${second.body.id}/download`);
    expect(grant.status).toBe(303);
    const url = new URL(grant.headers.get('location')!, t.s.url);
    expect(url.pathname).toMatch(/^\/api\/v1\/files\/statements\//);
    const file = await fetch(`${t.s.url}${url.pathname}`);
    expect(file.status).toBe(200);
    expect(
      Buffer.from(await file.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    // The revoked one gives no file; another learner's is not found, and their list is empty.
    expect((await a.web.get(`/learn/statements/${first.body.id}/download`)).status).toBe(409);
    expect((await b.web.get(`/learn/statements/${second.body.id}/download`)).status).toBe(404);
    expect((await b.web.get('/learn/statements')).text).toContain(
      'No statement of results has been issued to you yet.',
    );
    // The grant is audited as the learner's, from the portal.
    const audit = await t.s.call(
      'GET',
      `/api/v1/audit?entityId=${second.body.id}&action=statement.download_url_issued`,
      w.key,
    );
    expect(audit.body.data).toMatchObject([{ actor: { type: 'learner', id: a.id }, origin: { via: 'portal' } }]);
  });

  it('updates contact details and consents, audited as done by the learner', async () => {
    const { w, a } = await twoLearners();
    const page = await a.web.get('/learn/details');
    const saved = await a.web.post('/learn/details', {
      _csrf: csrfOf(page.text),
      email: `new-${w.slug}@example.org`,
      mobile: '082 555 1234',
      line1: '12 Long Street',
      line2: '',
      line3: 'Cape Town',
      postalCode: '8001',
      whatsappConsent: '1',
    });
    expect(saved.status).toBe(303);
    const l = await t.s.call('GET', `/api/v1/learners/${a.id}`, w.key);
    expect(l.body).toMatchObject({
      email: `new-${w.slug}@example.org`,
      mobile: '+27825551234',
      whatsappConsent: true,
      emailOptOut: false,
      homeAddress: { line1: '12 Long Street', line2: null, line3: 'Cape Town', postalCode: '8001' },
    });
    const audit = await reposOf(t.s.container).audit.list(w.tenantId, { resourceId: a.id, limit: 20 });
    const updated = audit.filter((x) => x.action === 'learner.updated');
    expect(updated.map((x) => x.actor)).toEqual([a.id]);
    // Through the API: the learner as the actor, the portal as the origin, with the request's address.
    const read = await t.s.call('GET', `/api/v1/audit?entityId=${a.id}&action=learner.updated`, w.key);
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    expect(read.body.data).toHaveLength(1);
    expect(read.body.data[0]).toMatchObject({
      actor: { type: 'learner', id: a.id, name: 'Lerato1 Mokoena' },
      entityType: 'learner',
      entityId: a.id,
      learnerId: a.id,
      origin: { via: 'portal' },
    });
    expect(read.body.data[0].origin.ip).toMatch(/127\.0\.0\.1/);
    // A logbook day logged and sent in the portal: in the learner's history, the learner's, from the portal.
    const logbook = await a.web.get('/learn/logbook');
    const fields = {
      _csrf: csrfOf(logbook.text),
      moduleCode: 'WM-01',
      date: '2026-03-02',
      hours: '8',
      activity: 'Fitted a geyser',
      workplace: 'Ubuntu Plumbing',
      supervisorName: 'Sipho Khumalo',
      supervisorEmail: `sipho-${w.slug}@site.example`,
      supervisorMobile: '',
    };
    expect((await a.web.post('/learn/logbook', fields)).status).toBe(303);
    const sent = await a.web.post('/learn/logbook/submit', { _csrf: csrfOf(logbook.text), moduleCode: 'WM-01' });
    expect(sent.status).toBe(303);
    const history = await t.s.call('GET', `/api/v1/learners/${a.id}/history?entityType=logbook_entry`, w.key);
    expect(
      (history.body.data as { action: string; actor: { id: string }; origin: { via: string } }[]).map((x) => [
        x.action,
        x.actor.id,
        x.origin.via,
      ]),
    ).toEqual([
      ['logbook.submitted', a.id, 'portal'],
      ['logbook.created', a.id, 'portal'],
    ]);
    const bad = await a.web.post('/learn/details', { _csrf: csrfOf(page.text), email: 'not-an-email', mobile: '' });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('email');
  });
});
