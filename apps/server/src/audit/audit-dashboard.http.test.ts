import { expect, it } from 'vitest';
import { PASSWORD, WebClient } from '../testing/dashboard-client.js';
import { assessmentBody, enrolledLearner, idNumberFor } from '../testing/training-fixtures.js';
import { describeDashboardSuite } from '../dashboard/dashboard-http-fixture.js';

describeDashboardSuite('the audit trail and Statements of Results in the dashboard', (world) => {
  it('issues, downloads and revokes a statement from the enrolment; the history and the audit page show it', async () => {
    const { s, apiKey } = world();
    const { learnerId, enrolment } = await enrolledLearner(s, apiKey, '/api/v1', {
      code: 'DSOR',
      idNumber: idNumberFor(131),
    });
    for (const m of ['KM-01', 'PM-01', 'WM-01'])
      expect(
        (
          await s.call(
            'POST',
            '/api/v1/assessments',
            apiKey,
            assessmentBody(learnerId, m, { enrolmentId: enrolment.id }),
          )
        ).status,
      ).toBe(201);
    const web = new WebClient(s.url, { 'x-forwarded-for': '10.9.8.7' });
    await web.signIn('web', 'admin@example.org', PASSWORD);
    const page = `/dashboard/learners/${learnerId}`;
    const before = await web.get(page);
    expect(before.text).toContain('Issue a Statement of Results');
    expect(before.text).toContain('<h2>History</h2>');
    expect(before.text).toContain('assessment.recorded');

    const issued = await web.submit(page, `${page}/statements`, { enrolmentId: enrolment.id });
    expect(issued.status).toBe(303);
    const after = await web.get(page);
    const download = /href="([^"]+\/download)"/.exec(after.text)![1]!;
    const redirect = await web.get(download);
    expect([302, 303]).toContain(redirect.status);
    const pdf = await fetch(new URL(redirect.headers.get('location')!, s.url));
    expect(pdf.headers.get('content-type')).toBe('application/pdf');

    const id = /statements\/(sor_[^/]+)\/download/.exec(download)![1]!;
    const refused = await web.submit(page, `${page}/statements/${id}/revoke`, { reason: '' });
    expect(refused.status).toBe(200);
    expect(refused.text).toContain('reason must say why the statement is revoked');
    const revoked = await web.submit(page, `${page}/statements/${id}/revoke`, { reason: 'Wrong programme' });
    expect(revoked.status).toBe(303);
    expect((await web.get(page)).text).toContain('Wrong programme');

    const audit = await web.get('/dashboard/audit?entityType=statement');
    expect(audit.status).toBe(200);
    for (const action of ['statement.issued', 'statement.download_url_issued', 'statement.revoked'])
      expect(audit.text).toContain(action);
    // Times in the tenant's zone (South African by default), as on the rest of the dashboard, not UTC.
    expect(audit.text).toMatch(/<td>\d{4}-\d\d-\d\d \d\d:\d\d (SAST|GMT\+2)<\/td>/);
    expect(audit.text).not.toMatch(/\d\d:\d\d UTC/);
    const api = await s.call('GET', `/api/v1/audit?entityId=${id}&action=statement.issued`, apiKey);
    expect(api.body.data[0]).toMatchObject({
      actor: { type: 'user', name: expect.any(String) },
      origin: { via: 'dashboard', ip: expect.any(String) },
    });
  });

  it('keeps the audit page and the history from viewers', async () => {
    const { s, apiKey } = world();
    const l = await s.call('POST', '/api/v1/learners', apiKey, {
      firstName: 'Ayanda',
      lastName: 'Zulu',
      idNumber: idNumberFor(132),
    });
    const web = new WebClient(s.url);
    await web.signIn('web', 'viewer@example.org', PASSWORD);
    expect((await web.get('/dashboard/audit')).status).toBe(403);
    const page = await web.get(`/dashboard/learners/${l.body.id}`);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('<h2>History</h2>');
    expect(page.text).not.toContain('Issue a Statement of Results');
  });
});
