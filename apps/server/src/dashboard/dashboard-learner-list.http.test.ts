import { expect, it, vi } from 'vitest';
import { PASSWORD, WebClient, csrfOf, staffUser } from '../testing/dashboard-client.js';
import type { TestServer } from '../testing/test-server.js';
import { idNumberFor, programmeBody } from '../testing/training-fixtures.js';
import { describeDashboardSuite } from './dashboard-http-fixture.js';

// Each test builds its learners through the API and walks several pages: generous on a loaded machine.
vi.setConfig({ testTimeout: 60_000 });

/** The learners' names in the list's table, in order. */
const namesIn = (page: string) =>
  [...page.matchAll(/<td><a href="\/dashboard\/learners\/lrn_[a-z0-9]+">([^<]+)<\/a><\/td>/g)].map((m) => m[1]);

/** The id of the learner's first enrolment. */
async function enrolmentOf(s: TestServer, apiKey: string, learnerId: string): Promise<string> {
  const r = await s.call('GET', `/api/v1/enrolments?learnerId=${learnerId}`, apiKey);
  return (r.body.data as { id: string }[])[0]!.id;
}

describeDashboardSuite(
  'dashboard learners list: filters, sorts, bulk actions, notifications',
  (world) => {
    async function people(tag = '') {
      const { s, apiKey } = world();
      for (const code of [`LL-ELEC${tag}`, `LL-PLUMB${tag}`])
        expect((await s.call('POST', '/api/v1/programmes', apiKey, programmeBody(code))).status).toBe(201);
      const add = async (firstName: string, lastName: string, n: number, employer: string | null) => {
        const r = await s.call('POST', '/api/v1/learners', apiKey, {
          firstName,
          lastName,
          idNumber: idNumberFor(7100 + n + 10 * ['', '-B', '-C'].indexOf(tag)),
          email: `${firstName.toLowerCase()}.ll${tag}@example.org`,
          ...(employer ? { employer } : {}),
        });
        expect(r.status, JSON.stringify(r.body)).toBe(201);
        return r.body.id as string;
      };
      const zola = await add('Zola', 'Mokoena', 1, 'Acme Engineering');
      const ann = await add('Ann', 'Botha', 2, 'ACME Mining');
      const ben = await add('Ben', 'Botha', 3, 'Other Co');
      const enrol = async (learnerId: string, programmeCode: string, startDate: string) =>
        expect(
          (await s.call('POST', '/api/v1/enrolments', apiKey, { learnerId, programmeCode, startDate })).status,
        ).toBe(201);
      await enrol(zola, `LL-ELEC${tag}`, '2026-02-10');
      await enrol(ann, `LL-ELEC${tag}`, '2026-04-02');
      await enrol(ben, `LL-PLUMB${tag}`, '2025-12-01');
      const web = new WebClient(s.url);
      await web.signIn('web', 'admin@example.org', PASSWORD);
      return { s, apiKey, web, zola, ann, ben };
    }

    it('filters by programme, status, start period and employer in any case, sorts, and counts pages', async () => {
      const { web } = await people();
      const list = async (query: string) => {
        const r = await web.get(`/dashboard/learners?${query}`);
        expect(r.status, r.text.slice(0, 500)).toBe(200);
        return r.text;
      };
      expect(namesIn(await list('employer=acme'))).toEqual(['Ann Botha', 'Zola Mokoena']);
      expect(namesIn(await list('programme=ll-elec'))).toEqual(['Ann Botha', 'Zola Mokoena']);
      expect(namesIn(await list('programme=LL-ELEC&from=2026-Q1&to=2026-q1'))).toEqual(['Zola Mokoena']);
      expect(namesIn(await list('from=2026-04&to=2026-04'))).toEqual(['Ann Botha']);
      expect(namesIn(await list('status=enrolled&employer=OTHER'))).toEqual(['Ben Botha']);
      const sorted = await list('employer=a&sort=name&dir=desc');
      expect(namesIn(sorted)).toEqual(['Zola Mokoena', 'Ann Botha']);
      expect(sorted).toContain('aria-sort="descending"');
      expect(namesIn(await list('programme=LL-&sort=start'))).toEqual([]);
      const byStart = await list('q=botha&sort=start');
      expect(namesIn(byStart)).toEqual(['Ben Botha', 'Ann Botha']);
      expect(byStart).toContain('2 learners matching "botha" · page 1 of 1.');
      expect(byStart).toContain('LL-PLUMB');
      const bad = await web.get('/dashboard/learners?from=2026-13');
      expect(bad.status).toBe(400);
      expect(bad.text).toContain('from must be a month (2026-03) or a quarter (2026-Q1)');
    });

    it('enrols a selection (enrolled, already enrolled, refused), sends a notification and exports it', async () => {
      const { s, apiKey, web, zola, ann, ben } = await people('-B');
      const list = await web.get('/dashboard/learners?employer=botha');
      const csrf = csrfOf(list.text);
      expect((await web.post('/dashboard/learners/bulk', { _csrf: csrf, action: 'enrol' })).status).toBe(400);
      expect((await web.post('/dashboard/learners/bulk', { learner: [ann], action: 'enrol' })).status).toBe(403);
      const choose = await web.post('/dashboard/learners/bulk', {
        _csrf: csrf,
        learner: [zola, ann, ben],
        action: 'enrol',
      });
      expect(choose.status).toBe(200);
      expect(choose.text).toContain('Enrol 3 learners');
      const done = await web.post('/dashboard/learners/bulk/enrol', {
        _csrf: csrf,
        learner: [zola, ann, ben],
        programmeCode: 'LL-PLUMB-B',
        startDate: '2026-05-01',
      });
      expect(done.status).toBe(200);
      expect(done.text).toMatch(/Zola Mokoena<\/a>[\s\S]*?<td>enrolled in LL-PLUMB-B<\/td>/);
      expect(done.text).toMatch(/Ben Botha<\/a>[\s\S]*?<td>already enrolled in LL-PLUMB-B<\/td>/);
      const ll = await s.call('GET', `/api/v1/enrolments?learnerId=${ann}`, apiKey);
      expect((ll.body.data as { programmeCode: string }[]).map((e) => e.programmeCode).sort()).toEqual([
        'LL-ELEC-B',
        'LL-PLUMB-B',
      ]);
      const refused = await web.post('/dashboard/learners/bulk/enrol', {
        _csrf: csrf,
        learner: [zola],
        programmeCode: 'LL-ELEC-B',
        startDate: 'someday',
      });
      expect(refused.text).toContain('refused: ');
      expect(refused.text).toContain('startDate');

      // Ben opts out of email: the API skips him and the result page says so.
      expect((await s.call('PATCH', `/api/v1/learners/${ben}`, apiKey, { emailOptOut: true })).status).toBe(200);
      const sent = await web.post('/dashboard/learners/bulk/notify', {
        _csrf: csrf,
        learner: [ann, ben],
        template: 'welcome',
        channel: 'email',
      });
      expect(sent.status).toBe(200);
      expect(sent.text).toMatch(/Ann Botha<\/a>[\s\S]*?<td>queued \(email\)<\/td>/);
      expect(sent.text).toMatch(/Ben Botha<\/a>[\s\S]*?<td>skipped/);
      const record = await web.get(`/dashboard/learners/${ann}`);
      expect(record.text).toContain('<h2>Notifications</h2>');
      expect(record.text).toMatch(/<td>email<\/td><td>welcome<\/td>/);
      expect(record.text).toMatch(/\d{4}-\d\d-\d\d \d\d:\d\d (SAST|GMT\+2)/);

      const exported = await web.post('/dashboard/learners/bulk', {
        _csrf: csrf,
        learner: [zola, ann],
        action: 'export',
      });
      expect(exported.status).toBe(303);
      const id = /exp_[a-z0-9]+/.exec(exported.headers.get('location') ?? '')![0];
      const shown = await s.call('GET', `/api/v1/exports/${id}`, apiKey);
      expect(shown.body).toMatchObject({ type: 'learners', filters: { learnerIds: [zola, ann] } });
      await expect
        .poll(async () => (await s.call('GET', `/api/v1/exports/${id}`, apiKey)).body.status, { timeout: 30_000 })
        .toBe('ready');
      expect((await s.call('GET', `/api/v1/exports/${id}`, apiKey)).body).toMatchObject({
        rowCount: 2,
        processedRows: 2,
        totalRows: 2,
      });
    });

    it('an assessor records C/NYC from the recording list; a facilitator lands on the learners in training', async () => {
      const { s, apiKey, zola, ann } = await people('-C');
      await staffUser(s.container, 'web', 'assessor');
      await staffUser(s.container, 'web', 'facilitator');
      const moved = await s.call('PATCH', `/api/v1/enrolments/${await enrolmentOf(s, apiKey, ann)}/status`, apiKey, {
        status: 'in_progress',
      });
      expect(moved.status, JSON.stringify(moved.body)).toBe(200);
      const assessor = new WebClient(s.url);
      await assessor.signIn('web', 'assessor@example.org', PASSWORD);
      const list = await assessor.get('/dashboard/assessments?programme=LL-ELEC-C');
      expect(list.status).toBe(200);
      expect(list.text).toContain('2 enrolments in training · page 1 of 1.');
      // In progress first (Ann), then enrolled (Zola); each module without a result is a row.
      expect(list.text.indexOf('Ann Botha')).toBeLessThan(list.text.indexOf('Zola Mokoena'));
      expect((list.text.match(/value="C"/g) ?? []).length).toBe(6);
      const back = '/dashboard/assessments?programme=LL-ELEC-C&page=0';
      const zolaEnrolment = await enrolmentOf(s, apiKey, zola);
      const done = await assessor.post('/dashboard/assessments/record', {
        _csrf: csrfOf(list.text),
        learnerId: zola,
        enrolmentId: zolaEnrolment,
        moduleCode: 'KM-01',
        outcome: 'C',
        assessmentDate: '2026-03-02',
        back,
      });
      expect(done.status).toBe(303);
      expect(done.headers.get('location')).toBe(`${back}&done=1`);
      const after = await assessor.get(done.headers.get('location')!);
      expect(after.text).toContain('The result is recorded.');
      expect((after.text.match(/value="C"/g) ?? []).length).toBe(5);
      const recorded = await s.call('GET', `/api/v1/assessments?learnerId=${zola}`, apiKey);
      expect(recorded.body.data).toMatchObject([
        { moduleCode: 'KM-01', outcome: 'C', assessorEmail: 'assessor@example.org' },
      ]);
      const refused = await assessor.post('/dashboard/assessments/record', {
        _csrf: csrfOf(list.text),
        learnerId: zola,
        enrolmentId: zolaEnrolment,
        moduleCode: 'NOPE-01',
        outcome: 'C',
        assessmentDate: '2026-03-02',
        back: 'https://evil.example/',
      });
      expect(refused.status).toBe(400);
      expect(refused.text).toContain('NOPE-01');
      expect((await s.call('GET', `/api/v1/assessments?learnerId=${zola}`, apiKey)).body.data).toHaveLength(1);
      const viewer = new WebClient(s.url);
      await viewer.signIn('web', 'viewer@example.org', PASSWORD);
      expect((await viewer.get('/dashboard/assessments')).status).toBe(403);

      const facilitator = new WebClient(s.url);
      await facilitator.signIn('web', 'facilitator@example.org', PASSWORD);
      const landing = await facilitator.get('/dashboard');
      expect(landing.text).toContain('Your learners: in training');
      expect(landing.text).toContain('Ann Botha');
    });
  },
  { worker: {} },
);
