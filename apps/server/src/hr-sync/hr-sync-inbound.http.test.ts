import { idNumberFor } from '@fundi/domain/testing';
import { describeEachStorage } from '@fundi/adapters/testing';
import { FixedClock } from '@fundi/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import { errorFields } from '../testing/training-fixtures.js';
import { employee, hrTenant } from './testing/hr-sync-fixtures.js';

let n = 0;
const nextId = () => idNumberFor(700_000 + ++n * 37);

describeEachStorage('HR sync inbound over HTTP', (_get, kind) => {
  let s: TestServer;
  let t: Awaited<ReturnType<typeof hrTenant>>;
  const clock = new FixedClock(new Date('2026-06-01T08:00:00.000Z'));

  beforeAll(async () => {
    s = await startTestServer(kind, { clock });
    t = await hrTenant(s, 'hr-acme');
  });
  afterAll(() => s?.close());

  const total = async (what: string) => (await s.call('GET', `/api/v1/${what}?limit=1`, t.admin)).body.pagination.total;

  it('employee.enrolled creates the learner and the enrolment and raises learner.created (the welcome message)', async () => {
    const idNumber = nextId();
    const r = await t.post({
      id: 'hr-evt-1',
      event: 'employee.enrolled',
      data: { ...employee(1, {}, idNumber), programmeCode: t.code, department: 'Plant', jobTitle: 'Fitter' },
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ learnerId: expect.any(String), enrolmentId: expect.any(String), created: true });
    const learner = await s.call('GET', `/api/v1/learners/${r.body.learnerId}`, t.admin);
    expect(learner.body).toMatchObject({
      idNumber,
      employeeRef: 'E-1',
      firstName: 'Thandi',
      department: 'Plant',
      jobTitle: 'Fitter',
    });
    const enrolment = await s.call('GET', `/api/v1/enrolments/${r.body.enrolmentId}`, t.admin);
    expect(enrolment.body).toMatchObject({ learnerId: r.body.learnerId, programmeCode: t.code, status: 'enrolled' });
    if (s.storage.db) {
      const events = await s.storage.db.all<{ subject_id: string }>(
        `SELECT subject_id FROM outbox_events WHERE type = 'learner.created' AND subject_id = ?`,
        [r.body.learnerId],
      );
      expect(events).toHaveLength(1);
    }
  });

  it('the same event twice (by id, or by body without one) changes nothing and answers as the first time', async () => {
    const [learners, enrolments] = [await total('learners'), await total('enrolments')];
    const again = await t.post({
      id: 'hr-evt-1',
      event: 'employee.enrolled',
      data: { ...employee(1, {}, 'ignored'), programmeCode: t.code },
    });
    expect(again.status).toBe(200);
    expect(again.body.created).toBe(true);
    const body = { event: 'employee.enrolled', data: { ...employee(2, {}, nextId()), programmeCode: t.code } };
    const first = await t.post(body);
    const second = await t.post(body, { form: 'B1' });
    expect(second.body).toEqual(first.body);
    expect(await total('learners')).toBe(learners + 1);
    expect(await total('enrolments')).toBe(enrolments + 1);
    const log = await s.call('GET', '/api/v1/hr-sync/events?limit=5', t.admin);
    expect(log.body.data[0]).toMatchObject({ result: 'duplicate', event: 'employee.enrolled', response: first.body });
  });

  it('copies of one event racing each other make one learner and one enrolment, and all get the same answer', async () => {
    const [learners, enrolments] = [await total('learners'), await total('enrolments')];
    const body = {
      id: 'race-1',
      event: 'employee.enrolled',
      data: { ...employee(50, {}, nextId()), programmeCode: t.code },
    };
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => t.post(body, { form: i % 2 ? 'A' : 'B' })));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
    for (const a of answers) expect(a.body).toEqual(answers[0]!.body);
    expect(await total('learners')).toBe(learners + 1);
    expect(await total('enrolments')).toBe(enrolments + 1);
  });

  it('matches by employeeRef, then by ID number; an open enrolment is not made twice', async () => {
    const idNumber = nextId();
    const first = await t.post({
      id: 'm-1',
      event: 'employee.enrolled',
      data: { ...employee(3, {}, idNumber), programmeCode: t.code },
    });
    const byRef = await t.post({
      id: 'm-2',
      event: 'employee.enrolled',
      data: { ...employee(3, { lastName: 'Dlamini' }, idNumber), programmeCode: t.code },
    });
    expect(byRef.body).toEqual({
      learnerId: first.body.learnerId,
      enrolmentId: first.body.enrolmentId,
      created: false,
    });
    expect((await s.call('GET', `/api/v1/learners/${first.body.learnerId}`, t.admin)).body.lastName).toBe('Dlamini');

    const walkIn = nextId();
    const made = await s.call('POST', '/api/v1/learners', t.admin, {
      firstName: 'Sipho',
      lastName: 'Zulu',
      idNumber: walkIn,
    });
    const byId = await t.post(
      {
        id: 'm-3',
        event: 'employee.enrolled',
        data: { ...employee(4, { firstName: 'Sipho', lastName: 'Zulu' }, walkIn), programmeCode: t.code },
      },
      { form: 'A' },
    );
    expect(byId.status).toBe(200);
    expect(byId.body).toMatchObject({ learnerId: made.body.id, created: false });
    expect((await s.call('GET', `/api/v1/learners/${made.body.id}`, t.admin)).body.employeeRef).toBe('E-4');
  });

  it('a custom mapping (staffNo -> learner.employeeRef) is applied, and errors name its HR fields', async () => {
    const c = await hrTenant(s, 'hr-custom', {
      fieldMapping: {
        staffNo: 'learner.employeeRef',
        givenName: 'learner.firstName',
        surname: 'learner.lastName',
        nationalId: 'learner.idNumber',
      },
    });
    const idNumber = nextId();
    const r = await c.post({
      event: 'employee.enrolled',
      data: { staffNo: 'S-77', givenName: 'Lerato', surname: 'Khumalo', nationalId: idNumber, programmeCode: c.code },
    });
    expect(r.status).toBe(200);
    expect((await s.call('GET', `/api/v1/learners/${r.body.learnerId}`, c.admin)).body).toMatchObject({
      employeeRef: 'S-77',
      firstName: 'Lerato',
      idNumber,
    });
    const bad = await c.post({
      event: 'employee.enrolled',
      data: { staffNo: 'S-78', givenName: 'L', surname: 'K', nationalId: '123', programmeCode: c.code },
    });
    expect(bad.status).toBe(400);
    expect(errorFields(bad.body)).toEqual(['nationalId']);
    // The specification's example carries email, department and jobTitle: optional fields this mapping leaves out
    // are ignored (even a value that would not pass as an email), any other field it does not name is refused.
    const spec = {
      staffNo: 'S-79',
      givenName: 'Sipho',
      surname: 'Dlamini',
      nationalId: nextId(),
      programmeCode: c.code,
      email: 'sipho.dlamini@example.co.za',
      department: 'Maintenance',
      jobTitle: 'Electrician',
    };
    const ignored = await c.post({ event: 'employee.enrolled', data: spec });
    expect(ignored.status, JSON.stringify(ignored.body)).toBe(200);
    const learner = (await s.call('GET', `/api/v1/learners/${ignored.body.learnerId}`, c.admin)).body;
    expect(learner).toMatchObject({ employeeRef: 'S-79', firstName: 'Sipho', email: null, department: null });
    const odd = await c.post({ event: 'employee.updated', data: { staffNo: 'S-79', email: 'nope' } }, { form: 'A' });
    expect(odd.status).toBe(200);
    const stray = await c.post({ event: 'employee.updated', data: { staffNo: 'S-79', employeeId: 'E-79' } });
    expect(stray.status).toBe(400);
    expect(errorFields(stray.body)).toEqual(['employeeId']);
  });

  it('employee.updated changes mapped fields; employee.terminated withdraws open enrolments with a reason', async () => {
    const r = await t.post(
      { event: 'employee.enrolled', data: { ...employee(30, {}, nextId()), programmeCode: t.code } },
      { key: t.hrKey },
    );
    const upd = await t.post(
      { event: 'employee.updated', data: { employeeId: 'E-30', jobTitle: 'Supervisor' } },
      { key: t.hrKey },
    );
    expect(upd.body).toEqual({ learnerId: r.body.learnerId });
    expect((await s.call('GET', `/api/v1/learners/${r.body.learnerId}`, t.admin)).body.jobTitle).toBe('Supervisor');
    const unknown = await t.post(
      { event: 'employee.updated', data: { employeeId: 'E-404', jobTitle: 'x' } },
      { key: t.hrKey },
    );
    expect(unknown.status).toBe(400);
    expect(errorFields(unknown.body)).toEqual(['employeeId']);
    const term = await t.post(
      { event: 'employee.terminated', data: { employeeId: 'E-30', reason: 'Resigned' } },
      { key: t.hrKey, form: 'A' },
    );
    expect(term.body).toEqual({ learnerId: r.body.learnerId, withdrawnEnrolmentIds: [r.body.enrolmentId] });
    const e = await s.call('GET', `/api/v1/enrolments/${r.body.enrolmentId}`, t.admin);
    expect(e.body.status).toBe('withdrawn');
  });

  it('the inbound log keeps what HR sent until the learner is erased; then no table holds it', async () => {
    const idNumber = nextId();
    const r = await t.post(
      {
        id: 'erase-me',
        event: 'employee.enrolled',
        data: { ...employee(40, { firstName: 'Erasable' }, idNumber), programmeCode: t.code },
      },
      { key: t.hrKey },
    );
    const find = async () =>
      (await s.call('GET', '/api/v1/tenants/hr-acme/hr-sync/events?limit=100', t.admin)).body.data.find(
        (e: { hrEventId: string | null }) => e.hrEventId === 'erase-me',
      );
    expect(await find()).toMatchObject({
      result: 'processed',
      learnerId: r.body.learnerId,
      data: { firstName: 'Erasable' },
      redacted: false,
    });
    expect((await s.call('DELETE', `/api/v1/learners/${r.body.learnerId}`, t.admin)).status).toBe(204);
    expect(await find()).toMatchObject({ data: null, redacted: true });
    const db = s.storage.db;
    if (db) {
      const tables = await db.all<{ name: string }>(db.dialect.tablesQuery);
      expect(tables.map((x) => x.name)).toEqual(expect.arrayContaining(['hr_events', 'learners', 'outbox_events']));
      const everything = JSON.stringify(await Promise.all(tables.map((x) => db.all(`SELECT * FROM ${x.name}`))));
      for (const value of [idNumber, 'Erasable', 'Mokoena40', 'employee40@example.co.za', '"E-40"'])
        expect(everything, value).not.toContain(value);
    }
  });
});
