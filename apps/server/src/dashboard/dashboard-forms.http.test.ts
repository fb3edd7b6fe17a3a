import { expect, it } from 'vitest';
import { PASSWORD, WebClient, csrfOf } from '../testing/dashboard-client.js';
import { idNumberFor } from '../testing/training-fixtures.js';
import { describeDashboardSuite } from './dashboard-http-fixture.js';

const ID = '9001049818080';
const idOf = (location: string | null, prefix: string) => new RegExp(`${prefix}_[a-z0-9]+`).exec(location ?? '')![0];

describeDashboardSuite('dashboard forms: the training record by form, as the API keeps it', (world) => {
  it('creates a programme with modules, edits it and retires it', async () => {
    const { s, apiKey } = world();
    const web = new WebClient(s.url);
    await web.signIn('web', 'admin@example.org', PASSWORD);
    const form = await web.get('/dashboard/programmes/new');
    expect(form.status).toBe(200);
    const bad = await web.post('/dashboard/programmes', {
      _csrf: csrfOf(form.text),
      code: 'F-PRG',
      name: 'Forms programme',
      type: 'skills_programme',
      'modules.0.code': 'KM-01',
      'modules.0.name': 'Knowledge',
      'modules.0.kind': 'knowledge',
      'modules.0.credits': 'ten',
    });
    expect(bad.status).toBe(200);
    expect(bad.text).toContain('modules.0.credits must be a whole number');
    expect(bad.text).toContain('value="Forms programme"');
    expect((await s.call('GET', '/api/v1/programmes/F-PRG', apiKey)).status).toBe(404);
    const made = await web.post('/dashboard/programmes', {
      _csrf: csrfOf(form.text),
      code: 'F-PRG',
      name: 'Forms programme',
      type: 'skills_programme',
      qualificationId: '91761',
      nqfLevel: '4',
      'modules.0.code': 'KM-01',
      'modules.0.name': 'Knowledge',
      'modules.0.kind': 'knowledge',
      'modules.0.credits': '10',
      'modules.1.code': 'PM-01',
      'modules.1.name': 'Practical',
      'modules.1.kind': 'practical',
    });
    expect(made.status).toBe(303);
    const id = idOf(made.headers.get('location'), 'prg');
    const api = await s.call('GET', '/api/v1/programmes/F-PRG', apiKey);
    expect(api.body).toMatchObject({ id, nqfLevel: 4, qualificationId: '91761' });
    expect((api.body.modules as unknown[]).length).toBe(2);
    const edit = await web.submit(`/dashboard/programmes/${id}`, `/dashboard/programmes/${id}`, {
      name: 'Forms programme, renamed',
      type: 'skills_programme',
      'modules.0.code': 'KM-01',
      'modules.0.name': 'Knowledge',
      'modules.0.kind': 'knowledge',
      'modules.1.code': 'PM-01',
      'modules.1.name': 'Practical',
      'modules.1.kind': 'practical',
      'modules.2.code': 'WM-01',
      'modules.2.name': 'Workplace',
      'modules.2.kind': 'workplace',
    });
    expect(edit.status).toBe(303);
    const edited = await s.call('GET', '/api/v1/programmes/F-PRG', apiKey);
    expect(edited.body.name).toBe('Forms programme, renamed');
    expect((edited.body.modules as unknown[]).length).toBe(3);
    expect((await web.submit(`/dashboard/programmes/${id}`, `/dashboard/programmes/${id}/retire`, {})).status).toBe(
      303,
    );
    expect((await s.call('GET', '/api/v1/programmes/F-PRG', apiKey)).body.status).toBe('retired');
  });

  it('adds a learner with an SA ID and coded profile, corrects them, enrols, records results and completes', async () => {
    const { s, apiKey } = world();
    await s.call('POST', '/api/v1/programmes', apiKey, {
      code: 'F-RUN',
      name: 'Forms run',
      type: 'skills_programme',
      modules: [
        { code: 'KM-01', name: 'Knowledge', kind: 'knowledge' },
        { code: 'PM-01', name: 'Practical', kind: 'practical' },
      ],
    });
    const web = new WebClient(s.url);
    await web.signIn('web', 'admin@example.org', PASSWORD);
    const form = await web.get('/dashboard/learners/new');
    expect(form.text).toContain('<option value="5">KwaZulu-Natal (5)</option>');
    expect(form.text).toContain('<option value="Zul">isiZulu (Zul)</option>');
    const fields = {
      _csrf: csrfOf(form.text),
      firstName: 'Thandi',
      lastName: 'Nkosi',
      idNumber: '9001049818081',
      mobile: '082 123 4567',
      provinceCode: '5',
      homeLanguageCode: 'Zul',
      equityCode: 'BA',
      'homeAddress.line1': '12 Long Street',
      'homeAddress.postalCode': '4001',
    };
    const refused = await web.post('/dashboard/learners/new', fields);
    expect(refused.status).toBe(200);
    expect(refused.text).toContain('idNumber fails the Luhn check digit');
    expect(refused.text).toContain('value="Thandi"');
    const added = await web.post('/dashboard/learners/new', { ...fields, idNumber: ID });
    expect(added.status).toBe(303);
    const learnerId = idOf(added.headers.get('location'), 'lrn');
    const stored = await s.call('GET', `/api/v1/learners/${learnerId}`, apiKey);
    expect(stored.body).toMatchObject({
      mobile: '+27821234567',
      provinceCode: '5',
      dateOfBirth: '1990-01-04',
      gender: 'M',
      homeAddress: { line1: '12 Long Street', postalCode: '4001' },
    });
    const record = await web.get(`/dashboard/learners/${learnerId}`);
    expect(record.text).toContain('KwaZulu-Natal (5)');
    const edit = await web.get(`/dashboard/learners/${learnerId}/edit`);
    expect(edit.text).toContain('value="+27821234567"');
    const corrected = await web.post(`/dashboard/learners/${learnerId}/edit`, {
      ...fields,
      _csrf: csrfOf(edit.text),
      idNumber: ID,
      lastName: 'Nkosi-Dlamini',
      provinceCode: '7',
    });
    expect(corrected.status).toBe(303);
    expect((await s.call('GET', `/api/v1/learners/${learnerId}`, apiKey)).body).toMatchObject({
      lastName: 'Nkosi-Dlamini',
      provinceCode: '7',
    });

    const page = `/dashboard/learners/${learnerId}`;
    const enrolled = await web.submit(page, `${page}/enrol`, { programmeCode: 'F-RUN', startDate: '2026-01-05' });
    expect(enrolled.status).toBe(303);
    const enrolment = (await s.call('GET', `/api/v1/enrolments?learnerId=${learnerId}`, apiKey)).body.data as {
      id: string;
    }[];
    const enrolmentId = enrolment[0]!.id;
    const move = (status: string, extra: Record<string, string> = {}) =>
      web.submit(page, `/dashboard/enrolments/${enrolmentId}/status`, {
        status,
        effectiveDate: '2026-02-01',
        ...extra,
      });
    expect((await move('in_progress')).status).toBe(303);
    const early = await move('completed');
    expect(early.status).toBe(400);
    expect(early.text).toContain('The enrolment cannot complete: no competent summative result for KM-01, PM-01');
    for (const moduleCode of ['KM-01', 'PM-01']) {
      const done = await web.submit(page, `${page}/assess`, {
        enrolmentId,
        moduleCode,
        outcome: 'C',
        assessmentType: 'summative',
        assessmentDate: '2026-03-01',
      });
      expect(done.status).toBe(303);
    }
    expect((await move('completed', { certificateNumber: 'CERT-1', effectiveDate: '2026-03-02' })).status).toBe(303);
    const after = await s.call('GET', `/api/v1/enrolments/${enrolmentId}`, apiKey);
    expect(after.body).toMatchObject({ status: 'completed', achievementDate: '2026-03-02' });
    const shown = await web.get(page);
    expect(shown.text).toContain('Forms run');
    expect(shown.text).toContain('admin@example.org');
    expect(shown.text).toContain('2 of 2 modules competent');
    expect(shown.text).toContain('Status history (3)');
    expect(shown.text).toContain('2026-03-02: in progress to completed');
  });

  it('shows a viewer no write controls and refuses their forced posts, writing nothing', async () => {
    const { s, apiKey } = world();
    const created = await s.call('POST', '/api/v1/learners', apiKey, {
      firstName: 'Sipho',
      lastName: 'Viewer',
      idNumber: idNumberFor(4242),
    });
    const id = created.body.id as string;
    const web = new WebClient(s.url);
    await web.signIn('web', 'viewer@example.org', PASSWORD);
    const record = await web.get(`/dashboard/learners/${id}`);
    expect(record.status).toBe(200);
    expect(record.text).not.toMatch(
      /<form[^>]+method="post"[^>]+action="\/dashboard\/(learners|enrolments|programmes)/,
    );
    expect(record.text).not.toContain('Edit Sipho');
    const programmes = await web.get('/dashboard/programmes');
    expect(programmes.text).not.toContain('Add a programme');
    const token = csrfOf(record.text);
    for (const [path, body] of [
      ['/dashboard/learners/new', { firstName: 'X', lastName: 'Y', idNumber: ID }],
      [`/dashboard/learners/${id}/edit`, { firstName: 'Changed', lastName: 'Viewer' }],
      [`/dashboard/learners/${id}/erase`, { confirm: 'Sipho Viewer' }],
      [`/dashboard/learners/${id}/enrol`, { programmeCode: 'F-RUN', startDate: '2026-01-05' }],
      ['/dashboard/programmes', { code: 'V-1', name: 'V', type: 'skills_programme' }],
    ] as const) {
      const refused = await web.post(path, { _csrf: token, ...body });
      expect(refused.status, path).toBe(403);
    }
    expect((await s.call('GET', `/api/v1/learners/${id}`, apiKey)).body.firstName).toBe('Sipho');
    expect((await s.call('GET', `/api/v1/enrolments?learnerId=${id}`, apiKey)).body.data).toEqual([]);
    expect((await s.call('GET', '/api/v1/programmes/V-1', apiKey)).status).toBe(404);
  });
});

describeDashboardSuite('dashboard settings: the time zone times are shown in', (world) => {
  it('shows South African time by default; an administrator changes it; a bad zone and a viewer are refused', async () => {
    const { s } = world();
    const web = new WebClient(s.url);
    await web.signIn('web', 'admin@example.org', PASSWORD);
    expect((await web.get('/dashboard/users')).text).toMatch(/\d{4}-\d\d-\d\d \d\d:\d\d SAST/);
    const bad = await web.submit('/dashboard/settings', '/dashboard/settings/time-zone', { timeZone: 'Mars/Olympus' });
    expect(bad.text).toContain('timeZone must be an IANA time zone');
    const set = await web.submit('/dashboard/settings', '/dashboard/settings/time-zone', { timeZone: 'UTC' });
    expect(set.status).toBe(303);
    expect((await web.get('/dashboard/settings')).text).toContain('Times are shown in <strong>UTC</strong>');
    expect((await web.get('/dashboard/users')).text).toMatch(/\d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    const viewer = new WebClient(s.url);
    await viewer.signIn('web', 'viewer@example.org', PASSWORD);
    const page = await viewer.get('/dashboard/settings');
    expect(page.text).not.toContain('Save time zone');
    const forced = await viewer.post('/dashboard/settings/time-zone', {
      _csrf: csrfOf(page.text),
      timeZone: 'Europe/London',
    });
    expect(forced.status).toBe(403);
    expect((await web.get('/dashboard/settings')).text).toContain('Times are shown in <strong>UTC</strong>');
  });
});
