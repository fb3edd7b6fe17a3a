import { expect, it } from 'vitest';
import { multipart, PDF } from '../evidence/evidence-http-fixture.js';
import { PASSWORD, WebClient } from '../testing/dashboard-client.js';
import { assessmentBody, enrolledLearner, idNumberFor } from '../testing/training-fixtures.js';
import { describeDashboardSuite } from './dashboard-http-fixture.js';

/** `/dashboard/enrolments/{id}`: one enrolment with everything about it, and its statements acted on from there. */
describeDashboardSuite('dashboard: the enrolment page', (world) => {
  it('shows the learner, programme, status history, modules, evidence, statements and history', async () => {
    const { s, apiKey } = world();
    const idNumber = idNumberFor(141);
    const { learnerId, enrolment } = await enrolledLearner(s, apiKey, '/api/v1', { code: 'DENR', idNumber });
    for (const m of ['KM-01', 'PM-01'])
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
    expect(
      (
        await s.call(
          'POST',
          '/api/v1/assessments',
          apiKey,
          assessmentBody(learnerId, 'WM-01', { enrolmentId: enrolment.id, outcome: 'NYC', assessorEmail: 'a@x.org' }),
        )
      ).status,
    ).toBe(201);
    const m = multipart(
      { learnerId, moduleId: 'WM-01', evidenceType: 'other', enrolmentId: enrolment.id },
      { name: 'logbook-scan.pdf', data: PDF },
    );
    const uploaded = await s.call('POST', '/api/v1/evidence', apiKey, m.body, { 'content-type': m.type });
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
    const moved = await s.call('PATCH', `/api/v1/enrolments/${enrolment.id}/status`, apiKey, {
      status: 'in_progress',
      reason: 'Classes began',
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);

    const web = new WebClient(s.url);
    await web.signIn('web', 'admin@example.org', PASSWORD);
    const learnerPage = await web.get(`/dashboard/learners/${learnerId}`);
    expect(learnerPage.text).toContain(`href="/dashboard/enrolments/${enrolment.id}"`);
    expect((await web.get('/dashboard/enrolments')).text).toContain(`href="/dashboard/enrolments/${enrolment.id}"`);

    const path = `/dashboard/enrolments/${enrolment.id}`;
    const page = await web.get(path);
    expect(page.status).toBe(200);
    for (const text of [
      'Thandi Nkosi',
      idNumber,
      'Programme DENR (DENR)',
      '91761',
      'in progress',
      'Classes began',
      'Module KM-01',
      'competent (C)',
      'not yet competent (NYC)',
      'a@x.org',
      'logbook-scan.pdf',
      '<h2>Statements of Results</h2>',
      '<h2>History</h2>',
      'enrolment.status_changed',
    ])
      expect(page.text, text).toContain(text);
    // The learner's internal id is never shown as text (only in links and form actions).
    expect(page.text.replace(/(href|action)="[^"]*"/g, '')).not.toContain(learnerId);

    const issued = await web.submit(path, `/dashboard/learners/${learnerId}/statements`, {
      enrolmentId: enrolment.id,
      back: 'enrolment',
    });
    expect(issued.status).toBe(303);
    expect(issued.headers.get('location')).toBe(path);
    const withStatement = await web.get(path);
    const id = /statements\/(sor_[^/]+)\/download/.exec(withStatement.text)![1]!;
    // A refusal is shown on this page, with the reason's message.
    const refused = await web.submit(path, `/dashboard/learners/${learnerId}/statements/${id}/revoke`, {
      reason: '',
      back: 'enrolment',
    });
    expect(refused.status).toBe(200);
    expect(refused.text).toContain('reason must say why the statement is revoked');
    expect(refused.text).toContain('<h2>Statements of Results</h2>');
    expect(refused.text).toContain('<h2>Modules</h2>');
    const revoked = await web.submit(path, `/dashboard/learners/${learnerId}/statements/${id}/revoke`, {
      reason: 'Issued in error',
      back: 'enrolment',
    });
    expect(revoked.status).toBe(303);
    expect(revoked.headers.get('location')).toBe(path);
    const after = await web.get(path);
    expect(after.text).toContain('Issued in error');
    expect(after.text).toContain('statement.revoked');
  });

  it('is 404 for another tenant’s enrolment and shows a viewer no history and no actions', async () => {
    const { s, apiKey } = world();
    const { enrolment } = await enrolledLearner(s, apiKey, '/api/v1', { code: 'DENR2', idNumber: idNumberFor(142) });
    const other = new WebClient(s.url);
    await other.signIn('web-other', 'admin@example.org', PASSWORD);
    expect((await other.get(`/dashboard/enrolments/${enrolment.id}`)).status).toBe(404);
    expect((await other.get('/dashboard/enrolments/enr_nope')).status).toBe(404);
    const viewer = new WebClient(s.url);
    await viewer.signIn('web', 'viewer@example.org', PASSWORD);
    const page = await viewer.get(`/dashboard/enrolments/${enrolment.id}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Programme DENR2');
    expect(page.text).not.toContain('<h2>History</h2>');
    expect(page.text).not.toContain('Issue a Statement of Results');
  });
});
