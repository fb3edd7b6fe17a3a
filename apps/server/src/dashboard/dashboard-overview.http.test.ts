import { expect, it } from 'vitest';
import { PASSWORD, WebClient } from '../testing/dashboard-client.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import { assessmentBody, idNumberFor, learnerEnrolledIn, programmeBody } from '../testing/training-fixtures.js';
import { describeDashboardSuite } from './dashboard-http-fixture.js';

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const text = (page: string) => page.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

describeDashboardSuite('dashboard over HTTP: the overview’s learners at risk and upcoming deadlines', (world) => {
  it('counts and lists learners past due or idle for 30 days, and enrolments due in the next 30 days', async () => {
    const { s, apiKey } = world();
    expect((await s.call('POST', '/api/v1/programmes', apiKey, programmeBody('P-WATCH'))).status).toBe(201);
    const enrol = async (n: number, firstName: string, e: { startDate: string; expectedEndDate?: string }) =>
      (await learnerEnrolledIn(s, apiKey, { n, firstName, lastName: 'Watch' }, { programmeCode: 'P-WATCH', ...e }))
        .learnerId;
    await enrol(1, 'Amahle', { startDate: '2026-01-10', expectedEndDate: day(-5) });
    const idle = await enrol(2, 'Bongani', { startDate: '2026-01-10', expectedEndDate: day(90) });
    const active = await enrol(3, 'Cebo', { startDate: '2026-01-10', expectedEndDate: day(10) });
    await enrol(4, 'Dineo', { startDate: day(-3), expectedEndDate: day(40) });
    const assess = async (learnerId: string, assessmentDate: string) =>
      expect(
        (await s.call('POST', '/api/v1/assessments', apiKey, assessmentBody(learnerId, 'KM-01', { assessmentDate })))
          .status,
      ).toBe(201);
    await assess(idle, '2026-01-20');
    await assess(active, day(-2));

    const web = new WebClient(s.url);
    await web.signIn('web', 'admin@example.org', PASSWORD);
    const page = await web.get('/dashboard');
    expect(page.status).toBe(200);
    const words = text(page.text);
    expect(words).toContain(
      'Learners at risk 2 learners (2 open enrolments) past the expected end date or with no assessment or evidence in 30 days.',
    );
    expect(words).toContain(`Amahle Watch ${idNumberFor(7001)} P-WATCH Expected end ${day(-5)} has passed`);
    expect(words).toContain(
      `Bongani Watch ${idNumberFor(7002)} P-WATCH No assessment or evidence in 30 days (last assessed 2026-01-20)`,
    );
    expect(words).not.toMatch(/Cebo Watch \S+ P-WATCH No assessment/);
    expect(words).not.toContain('Dineo Watch');
    expect(page.text).toContain(`<a href="/dashboard/learners/${idle}">Bongani Watch</a>`);
    expect(words).toContain('Upcoming deadlines 1 open enrolment expected to end in the next 30 days.');
    expect(words).toContain(`Cebo Watch ${idNumberFor(7003)} P-WATCH ${day(10)}`);

    // An assessment today takes the idle learner off the list at once.
    await assess(idle, day(0));
    const after = text((await web.get('/dashboard')).text);
    expect(after).toContain('Learners at risk 1 learner (1 open enrolment) past');
    expect(after).not.toContain('Bongani Watch');

    // Another tenant sees none of it.
    const other = new WebClient(s.url);
    await other.signIn('web-other', 'admin@example.org', PASSWORD);
    const theirs = text((await other.get('/dashboard')).text);
    expect(theirs).toContain('Learners at risk 0 learners (0 open enrolments)');
    expect(theirs).toContain('Upcoming deadlines 0 open enrolments');
  });

  it('keeps the at-risk list and status counts until a write, which the next view shows on either process', async () => {
    const { s, apiKey } = world();
    // A second server over the same database: the kept answers are per process, the audit head is shared.
    const two = await startTestServer(s.storage.target?.kind ?? 'memory', { attach: s.storage });
    try {
      expect((await s.call('POST', '/api/v1/programmes', apiKey, programmeBody('P-KEPT'))).status).toBe(201);
      const enrol = async (server: TestServer, n: number, firstName: string) =>
        (
          await learnerEnrolledIn(
            server,
            apiKey,
            { n: 100 + n, firstName, lastName: 'Kept' },
            { programmeCode: 'P-KEPT', startDate: '2026-01-10', expectedEndDate: day(90) },
          )
        ).enrolmentId;
      await enrol(s, 1, 'Ayanda');
      const one = new WebClient(s.url);
      await one.signIn('web', 'admin@example.org', PASSWORD);
      const other = new WebClient(two.url);
      await other.signIn('web', 'admin@example.org', PASSWORD);
      const kept = (page: string) => ({
        atRisk: /Learners at risk ([\d,]+) learners? \(([\d,]+) open enrolments?\)/.exec(page)?.slice(1),
        open: /Open enrolments (\d+)/.exec(page)?.[1],
        ayanda: page.includes('Ayanda Kept'),
        bheki: page.includes('Bheki Kept'),
      });
      const first = kept(text((await one.get('/dashboard')).text));
      expect(first.ayanda).toBe(true);
      // Viewed again on both processes: the same figures (the second counts for itself, the first answers kept).
      expect(kept(text((await one.get('/dashboard')).text))).toEqual(first);
      expect(kept(text((await other.get('/dashboard')).text))).toEqual(first);
      const [learners, enrolments] = first.atRisk!.map(Number);

      // A learner enrolled through the second process shows on the first's next view.
      const bheki = await enrol(two, 2, 'Bheki');
      const added = kept(text((await one.get('/dashboard')).text));
      expect(added.atRisk).toEqual([String(learners! + 1), String(enrolments! + 1)]);
      expect(Number(added.open)).toBe(Number(first.open) + 1);
      expect(added.bheki).toBe(true);

      // Withdrawn through the first process: gone from the second's next view, and from the first's.
      const out = await s.call('PATCH', `/api/v1/enrolments/${bheki}/status`, apiKey, { status: 'withdrawn' });
      expect(out.status).toBe(200);
      for (const client of [other, one]) {
        const after = kept(text((await client.get('/dashboard')).text));
        expect(after.atRisk).toEqual(first.atRisk);
        expect(after.open).toBe(first.open);
        expect(after.bheki).toBe(false);
      }
    } finally {
      await two.close();
    }
  });

  it('shows QCTO readiness by file with the fields keeping most learners out, and counts again after a change', async () => {
    const { s, apiKey } = world();
    const made = await s.call('POST', '/api/v1/learners', apiKey, {
      firstName: 'Ready',
      lastName: 'Check',
      idNumber: idNumberFor(7100),
    });
    expect(made.status).toBe(201);
    const web = new WebClient(s.url);
    await web.signIn('web', 'admin@example.org', PASSWORD);
    const overview = async () => text((await web.get('/dashboard')).text);
    // The overview never waits for a count: it shows the last one (marked when older than the latest change, as the
    // other test's count is now) or says one has begun. The readiness reports count now, and the overview shows that.
    const counted = (t: string) => !t.includes('Being counted') && !t.includes('before the latest changes');
    for (const type of ['qcto01', 'qcto02'])
      expect((await web.get(`/dashboard/readiness?type=${type}`)).status).toBe(200);
    expect(counted(await overview())).toBe(true);
    const page = (await web.get('/dashboard')).text;
    expect(text(page)).toMatch(/QCTO01 learner information \d+ learners? ready , \d+ learners? left out\./);
    expect(page).toContain('Fields keeping most learners out:');
    expect(page).toMatch(/<a href="\/dashboard\/readiness\?type=qcto01&amp;field=[^"]+">[^<]+<\/a>: \d+ learners?/);

    const missingEquity = async () => {
      const r = await web.get('/dashboard/readiness?type=qcto01&field=equityCode');
      expect(r.status).toBe(200);
      const n = /<summary><strong>([^<]+)<\/strong>: (\d+) learners?<\/summary>/.exec(r.text);
      expect(text(r.text)).toContain(`Learners missing ${n?.[1]}`);
      return { n: Number(n?.[2]), text: r.text };
    };
    const before = await missingEquity();
    expect(before.text).toContain('<details class="card" open>');
    expect(before.text).toContain('Ready Check');
    expect((await s.call('PATCH', `/api/v1/learners/${made.body.id}`, apiKey, { equityCode: 'BA' })).status).toBe(200);
    // The overview shows the last count, marked as older than the change ...
    expect(await overview()).toContain('before the latest changes; it is counted again at most every 5 minutes');
    // ... and the readiness report counts the change at once.
    const after = await missingEquity();
    expect(after.n).toBe(before.n - 1);
    expect(after.text).not.toContain('Ready Check');
    // ... and the count the report made is the overview's from then on.
    const qcto01 = (t: string) => t.slice(t.indexOf('QCTO01 learner information'), t.indexOf('QCTO02 module'));
    expect(qcto01(await overview())).not.toContain('before the latest changes');
  });
});
