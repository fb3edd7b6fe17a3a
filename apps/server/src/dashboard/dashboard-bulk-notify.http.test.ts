import { afterAll, expect, it, vi } from 'vitest';
import { startSmtpServer, type TestSmtpServer } from '@fundi/adapters/testing';
import { PASSWORD, WebClient, csrfOf } from '../testing/dashboard-client.js';
import { describeServerSuite } from '../testing/server-suite.js';
import { assessmentBody, idNumberFor, programmeBody } from '../testing/training-fixtures.js';
import { startDashboardServer } from './dashboard-http-fixture.js';

// Learners and enrolments through the API, a send through the page, then the worker's mail: generous when loaded.
vi.setConfig({ testTimeout: 90_000 });

const smtps: TestSmtpServer[] = [];
afterAll(async () => {
  for (const smtp of smtps) await smtp.close();
});

/** The dashboard's server with its worker mailing to a loopback SMTP server. */
async function start(kind: Parameters<typeof startDashboardServer>[0]) {
  const smtp = await startSmtpServer();
  smtps.push(smtp);
  const world = await startDashboardServer(kind, {
    worker: {},
    notifications: {
      publicUrl: 'https://fundi.example',
      channels: { smtpUrl: smtp.url, smtpFrom: 'Fundi <no-reply@fundi.example>', smtpOptions: { ignoreTLS: true } },
    },
  });
  return { ...world, smtp };
}

describeServerSuite('dashboard bulk notification: each learner gets their own values', start, (world) => {
  it("fills each learner's names, programme, deadline and latest result, and refuses one without an enrolment", async () => {
    const { s, apiKey, smtp } = world();
    // Only the bulk sends mail here: the triggers of the learners, results and deadlines made below are off.
    const off = { welcome: false, assessment_result: false, programme_milestone: false, deadline_reminder: false };
    expect((await s.call('PUT', '/api/v1/notification-settings', apiKey, { triggers: off })).status).toBe(200);
    for (const code of ['BN-WELD', 'BN-PLUMB'])
      expect((await s.call('POST', '/api/v1/programmes', apiKey, programmeBody(code))).status).toBe(201);
    const add = async (firstName: string, n: number) => {
      const r = await s.call('POST', '/api/v1/learners', apiKey, {
        firstName,
        lastName: 'Bulk',
        idNumber: idNumberFor(7300 + n),
        email: `${firstName.toLowerCase()}.bulk@example.org`,
      });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      return r.body.id as string;
    };
    const thandi = await add('Thandi', 1);
    const sipho = await add('Sipho', 2);
    const lindiwe = await add('Lindiwe', 3);
    const enrol = async (learnerId: string, programmeCode: string, expectedEndDate: string) => {
      const r = await s.call('POST', '/api/v1/enrolments', apiKey, {
        learnerId,
        programmeCode,
        startDate: '2026-02-01',
        expectedEndDate,
      });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
    };
    await enrol(thandi, 'BN-WELD', '2026-12-15');
    await enrol(sipho, 'BN-PLUMB', '2027-01-20');
    const recorded = async (learnerId: string, moduleCode: string, outcome: string, assessmentDate: string) => {
      const r = await s.call('POST', '/api/v1/assessments', apiKey, {
        ...assessmentBody(learnerId, moduleCode, { outcome, assessmentDate }),
        assessorEmail: 'assessor@example.org',
      });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
    };
    await recorded(thandi, 'KM-01', 'C', '2026-03-01');
    await recorded(thandi, 'PM-01', 'NYC', '2026-04-01');
    await recorded(sipho, 'WM-01', 'C', '2026-05-01');

    const web = new WebClient(s.url);
    await web.signIn('web', 'admin@example.org', PASSWORD);
    const csrf = csrfOf((await web.get('/dashboard/learners')).text);
    const form = await web.post('/dashboard/learners/bulk', {
      _csrf: csrf,
      learner: [thandi, sipho],
      action: 'notify',
    });
    expect(form.status).toBe(200);
    expect(form.text).toContain('About the enrolment in');
    const send = (template: string, learner: string[]) =>
      web.post('/dashboard/learners/bulk/notify', { _csrf: csrf, learner, template, channel: 'email' });
    const mails = async (address: string) => (await smtp.received()).filter((m) => m.to.includes(address));
    const count = async (address: string) => (await mails(address)).length;
    const last = async (address: string) => (await mails(address)).at(-1)!;

    // The deadline reminder needs the programme, the date and the task: each learner's come from their enrolment.
    const reminded = await send('deadline_reminder', [thandi, sipho, lindiwe]);
    expect(reminded.status).toBe(200);
    expect(reminded.text).toMatch(/Thandi Bulk<\/a>[\s\S]*?<td>queued \(email\)<\/td>/);
    expect(reminded.text).toMatch(/Sipho Bulk<\/a>[\s\S]*?<td>queued \(email\)<\/td>/);
    expect(reminded.text).toMatch(/Lindiwe Bulk<\/a>[\s\S]*?<td>refused: [^<]*programme\.name/);
    await expect.poll(() => count('thandi.bulk@example.org'), { timeout: 45_000 }).toBe(1);
    await expect.poll(() => count('sipho.bulk@example.org'), { timeout: 45_000 }).toBe(1);
    const toThandi = await last('thandi.bulk@example.org');
    expect(toThandi.subject).toBe('Reminder: completing Programme BN-WELD is due on 2026-12-15');
    expect(toThandi.text).toContain('Hi Thandi,');
    expect(toThandi.text).toContain(
      'This is a reminder that completing Programme BN-WELD for Programme BN-WELD is due on 2026-12-15.',
    );
    const toSipho = await last('sipho.bulk@example.org');
    expect(toSipho.subject).toBe('Reminder: completing Programme BN-PLUMB is due on 2027-01-20');
    expect(toSipho.text).toContain('Hi Sipho,');
    expect(toSipho.text).not.toContain('Thandi');

    // The result mail names each learner's latest result (Thandi's NYC on 1 April, not her earlier C).
    const results = await send('assessment_result', [thandi, sipho]);
    expect(results.status).toBe(200);
    await expect.poll(() => count('thandi.bulk@example.org'), { timeout: 45_000 }).toBe(2);
    await expect.poll(() => count('sipho.bulk@example.org'), { timeout: 45_000 }).toBe(2);
    expect(await count('lindiwe.bulk@example.org')).toBe(0);
    expect((await last('thandi.bulk@example.org')).subject).toBe('Your result for Module PM-01: not yet competent');
    expect((await last('sipho.bulk@example.org')).subject).toBe('Your result for Module WM-01: competent');
    expect((await last('sipho.bulk@example.org')).text).toContain('Hi Sipho,');

    // About a chosen programme: only a learner enrolled in it gets its values; Thandi is not, so she is refused.
    const completed = await web.post('/dashboard/learners/bulk/notify', {
      _csrf: csrf,
      learner: [thandi, sipho],
      template: 'programme_complete',
      channel: 'email',
      programmeCode: 'BN-PLUMB',
    });
    expect(completed.text).toMatch(/Thandi Bulk<\/a>[\s\S]*?<td>refused: [^<]*programme\.name/);
    expect(completed.text).toMatch(/Sipho Bulk<\/a>[\s\S]*?<td>queued \(email\)<\/td>/);
    await expect.poll(() => count('sipho.bulk@example.org'), { timeout: 45_000 }).toBe(3);
    expect((await last('sipho.bulk@example.org')).subject).toBe('Congratulations: you completed Programme BN-PLUMB');
    expect(await count('thandi.bulk@example.org')).toBe(2);
  });
});
