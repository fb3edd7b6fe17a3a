import { idNumberFor } from '@fundi/domain/testing';
import { describeEachStorage } from '@fundi/adapters/testing';
import { FixedClock } from '@fundi/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import { errorFields, formsOf } from '../testing/training-fixtures.js';
import { employee, hrTenant } from './testing/hr-sync-fixtures.js';

let n = 0;
const nextId = () => idNumberFor(720_000 + ++n * 37);

describeEachStorage(
  'HR sync inbound over HTTP: refused calls (bad input, stale timestamps, wrong keys)',
  (_get, kind) => {
    let s: TestServer;
    let t: Awaited<ReturnType<typeof hrTenant>>;
    const clock = new FixedClock(new Date('2026-06-01T08:00:00.000Z'));

    beforeAll(async () => {
      s = await startTestServer(kind, { clock });
      t = await hrTenant(s, 'hr-acme');
    });
    afterAll(() => s?.close());

    const total = async (what: string) =>
      (await s.call('GET', `/api/v1/${what}?limit=1`, t.admin)).body.pagination.total;

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
      expect((await t.post({ id: 'k-2', event: 'employee.enrolled', data }, { key: rotated.body.key })).status).toBe(
        200,
      );

      await s.call('PUT', '/api/v1/hr-sync', t.admin, { enabled: false });
      const disabled = await t.post({ id: 'k-3', event: 'employee.enrolled', data }, { key: rotated.body.key });
      expect(disabled.status).toBe(403);
      await s.call('PUT', '/api/v1/hr-sync', t.admin, { enabled: true });
      t.hrKey = rotated.body.key;
    });
  },
);
