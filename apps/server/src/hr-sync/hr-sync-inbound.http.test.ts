import { idNumberFor } from '@fundi/domain/testing';
import { describeEachStorage } from '@fundi/adapters/testing';
import { FixedClock } from '@fundi/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import { errorFields, formsOf } from '../testing/training-fixtures.js';
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

  for (const f of formsOf('hr-acme')) {
    it(`${f.form}: bad input names the HR field and writes nothing`, async () => {
      const form = f.form === 'A' ? 'A' : f.form;
      const [learners, enrolments] = [await total('learners'), await total('enrolments')];
      const cases: [Record<string, unknown>, string][] = [
        [{ ...employee(9, {}, undefined), programmeCode: t.code }, 'saIdNumber'],
        [{ ...employee(9, {}, '9001049818081'), programmeCode: t.code }, 'saIdNumber'],
        [{ ...employee(9, { employeeId: undefined }, nextId()), programmeCode: t.code }, 'employeeId'],
        [{ ...employee(9, { email: 'not-an-email' }, nextId()), programmeCode: t.code }, 'email'],
        [{ ...employee(9, {}, nextId()), programmeCode: 'NOPE' }, 'programmeCode'],
        [{ ...employee(9, {}, nextId()) }, 'programmeCode'],
        [{ ...employee(9, { shoeSize: 9 }, nextId()), programmeCode: t.code }, 'shoeSize'],
        [{ ...employee(9, { firstName: 'Thandi\u001b' }, nextId()), programmeCode: t.code }, 'data.firstName'],
        [{ ...employee(9, { department: 'Ops\u202E' }, nextId()), programmeCode: t.code }, 'data.department'],
      ];
      for (const [data, field] of cases) {
        const r = await t.post({ event: 'employee.enrolled', data }, { form });
        expect(r.status, JSON.stringify(data)).toBe(f.invalid);
        expect(r.body.error.code).toBe(f.codes.invalid);
        expect(errorFields(r.body)).toContain(field);
      }
      const unknown = await t.post({ event: 'employee.promoted', data: {} }, { form });
      expect(unknown.status).toBe(f.invalid);
      expect(unknown.body.error.code).toBe(f.codes.invalid);
      expect(errorFields(unknown.body)).toEqual(['event']);
      expect(unknown.body.error.message).toContain('employee.promoted');
      expect(await total('learners')).toBe(learners);
      expect(await total('enrolments')).toBe(enrolments);
      const log = await s.call('GET', '/api/v1/hr-sync/events?limit=1', t.admin);
      expect(log.body.data[0]).toMatchObject({ result: 'failed', error: { fields: ['event'] }, data: null });
    });
  }

  for (const f of formsOf('hr-acme')) {
    it(`${f.form}: refuses a timestamp more than 5 minutes from now, and prototype keys anywhere in the body`, async () => {
      const form = f.form === 'A' ? 'A' : f.form;
      const [learners, enrolments] = [await total('learners'), await total('enrolments')];
      const now = clock.now().getTime();
      const at = (ms: number) => new Date(now + ms).toISOString();
      const data = { ...employee(30, {}, nextId()), programmeCode: t.code };
      for (const timestamp of [
        '1990-01-01T00:00:00Z',
        '2099-01-01T00:00:00Z',
        at(-5 * 60_000 - 1000),
        at(5 * 60_000 + 1000),
        '2026-06-01',
        'yesterday',
      ]) {
        const r = await t.post(
          { id: `hr-ts-${f.form}-${timestamp}`, event: 'employee.enrolled', timestamp, data },
          { form },
        );
        expect(r.status, timestamp).toBe(f.invalid);
        expect(errorFields(r.body), timestamp).toEqual(['timestamp']);
      }
      const log = await s.call('GET', '/api/v1/hr-sync/events?limit=100', t.admin);
      const logged = log.body.data.filter((e: { hrEventId: string }) => e.hrEventId === `hr-ts-${f.form}-yesterday`);
      expect(logged).toEqual([
        expect.objectContaining({ result: 'failed', error: expect.objectContaining({ fields: ['timestamp'] }) }),
      ]);
      const fields = JSON.stringify(data).slice(1, -1);
      for (const [body, field] of [
        [`{"event":"employee.enrolled","data":{"__proto__":{"employeeId":"E-666"},${fields}}}`, 'data.__proto__'],
        [`{"event":"employee.enrolled","data":{"constructor":"learner.email",${fields}}}`, 'data.constructor'],
        [`{"__proto__":{"event":"employee.terminated"},"event":"employee.enrolled","data":{${fields}}}`, '__proto__'],
        [`{"event":"employee.enrolled","data":{"deep":[{"prototype":1}],${fields}}}`, 'data.deep.0.prototype'],
      ]) {
        const r = await t.post(body, { form });
        expect(r.status, body).toBe(f.invalid);
        expect(errorFields(r.body), body).toEqual([field]);
      }
      expect(await total('learners')).toBe(learners);
      expect(await total('enrolments')).toBe(enrolments);
      // Within 5 minutes either way is taken; a processed event sent again later is answered as the first time.
      const early = await t.post(
        { id: `hr-early-${f.form}`, event: 'employee.enrolled', timestamp: at(-4 * 60_000), data },
        { form },
      );
      expect(early.status).toBe(200);
      const ahead = { ...data, ...employee(31, {}, nextId()) };
      const late = await t.post({ event: 'employee.enrolled', timestamp: at(4 * 60_000), data: ahead }, { form });
      expect(late.status).toBe(200);
      clock.advance(3600_000);
      try {
        const again = await t.post(
          { id: `hr-early-${f.form}`, event: 'employee.enrolled', timestamp: at(-4 * 60_000), data },
          { form },
        );
        expect(again.status).toBe(200);
        expect(again.body).toEqual(early.body);
      } finally {
        clock.advance(-3600_000);
      }
    });
  }

  it('keys: wrong or missing 401; the previous key works for 24 h; another tenant’s key 403; disabled 403', async () => {
    const data = { ...employee(20, {}, nextId()), programmeCode: t.code };
    expect((await t.post({ event: 'employee.enrolled', data }, { key: 'hrk_wrong' })).status).toBe(401);
    expect((await t.post({ event: 'employee.enrolled', data }, { key: null })).status).toBe(401);
    expect((await t.post({ event: 'employee.enrolled', data }, { key: 'hrk_wrong', form: 'A' })).status).toBe(401);
    expect((await t.post({ event: 'employee.enrolled', data }, { header: 'X-Other' })).status).toBe(401);
    const other = await hrTenant(s, 'hr-other');
    const foreign = await t.post({ event: 'employee.enrolled', data }, { key: other.hrKey });
    expect(foreign.status).toBe(403);
    expect(foreign.body.error.code).toBe('FORBIDDEN');

    const rotated = await s.call('POST', '/api/v1/tenants/hr-acme/hr-sync/rotate-key', t.admin);
    expect(rotated.body.previousKeyExpiresAt).toBe(new Date(clock.now().getTime() + 86_400_000).toISOString());
    const old = await t.post({ id: 'k-1', event: 'employee.enrolled', data });
    expect(old.status).toBe(200);
    const fresh = await t.post({ id: 'k-1', event: 'employee.enrolled', data }, { key: rotated.body.key, form: 'A' });
    expect(fresh.body).toEqual(old.body);
    clock.advance(86_400_000 + 1000);
    expect((await t.post({ id: 'k-2', event: 'employee.enrolled', data })).status).toBe(401);
    expect((await t.post({ id: 'k-2', event: 'employee.enrolled', data }, { form: 'A' })).status).toBe(401);
    expect((await t.post({ id: 'k-2', event: 'employee.enrolled', data }, { key: rotated.body.key })).status).toBe(200);

    await s.call('PUT', '/api/v1/hr-sync', t.admin, { enabled: false });
    const disabled = await t.post({ id: 'k-3', event: 'employee.enrolled', data }, { key: rotated.body.key });
    expect(disabled.status).toBe(403);
    await s.call('PUT', '/api/v1/hr-sync', t.admin, { enabled: true });
    t.hrKey = rotated.body.key;
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
