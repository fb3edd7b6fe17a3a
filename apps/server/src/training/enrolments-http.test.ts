import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FixedClock } from '@fundi/testing';
import { ENROLMENT_MOVES, ENROLMENT_STATUSES, type EnrolmentStatus } from '@fundi/domain/training';
import { startTestServer, type TestServer } from '@fundi/server/testing';
import { assessmentBody, errorFields, formsOf, idNumberFor, programmeBody } from '../testing/training-fixtures.js';

const PATHS: Record<EnrolmentStatus, EnrolmentStatus[]> = {
  enrolled: [],
  in_progress: ['in_progress'],
  suspended: ['in_progress', 'suspended'],
  completed: ['in_progress', 'completed'],
  withdrawn: ['withdrawn'],
};

describe('enrolments over HTTP, both forms [sqlite]', () => {
  let s: TestServer;
  let key: string;
  let otherKey: string;
  let viewer: string;
  let n = 0;
  const forms = formsOf('enr');
  beforeAll(async () => {
    s = await startTestServer('sqlite', { clock: new FixedClock(new Date('2026-06-01T08:00:00.000Z')) });
    key = (await s.tenant('enr')).key;
    otherKey = (await s.tenant('enr-other')).key;
    viewer = (await s.key('enr', 'viewer')).key;
    expect((await s.call('POST', '/api/v1/programmes', key, programmeBody('P1', ['M1']))).status).toBe(201);
  });
  afterAll(async () => s.close());

  async function learner(): Promise<string> {
    const l = await s.call('POST', '/api/v1/learners', key, {
      firstName: 'A',
      lastName: 'B',
      idNumber: idNumberFor(n++),
    });
    expect(l.status).toBe(201);
    return l.body.id;
  }

  async function enrolmentIn(status: EnrolmentStatus): Promise<string> {
    const learnerId = await learner();
    const e = await s.call('POST', '/api/v1/enrolments', key, {
      learnerId,
      programmeCode: 'P1',
      startDate: '2026-01-10',
    });
    await s.call('POST', '/api/v1/assessments', key, assessmentBody(learnerId, 'M1'));
    for (const to of PATHS[status])
      expect((await s.call('PATCH', `/api/v1/enrolments/${e.body.id}/status`, key, { status: to })).status).toBe(200);
    return e.body.id;
  }

  const pairs = ENROLMENT_STATUSES.flatMap((from) =>
    ENROLMENT_STATUSES.map((to, i) => ({ from, to, f: forms[i % 3]!, allowed: ENROLMENT_MOVES[from].includes(to) })),
  );

  it.each(pairs.filter((p) => p.allowed))(
    'PATCH status $from -> $to is 200 (Form $f.form)',
    async ({ from, to, f }) => {
      const id = await enrolmentIn(from);
      const moved = await s.call('PATCH', `${f.prefix}/enrolments/${id}/status`, key, { status: to, reason: 'r' });
      expect([moved.status, moved.body.status]).toEqual([200, to]);
    },
  );

  it.each(pairs.filter((p) => !p.allowed))(
    'PATCH status $from -> $to is 409 naming both (Form $f.form)',
    async ({ from, to, f }) => {
      const id = await enrolmentIn(from);
      const refused = await s.call('PATCH', `${f.prefix}/enrolments/${id}/status`, key, { status: to });
      expect(refused.status).toBe(409);
      expect(refused.body.error).toMatchObject({ code: f.codes.conflict, currentStatus: from, requestedStatus: to });
    },
  );

  for (const f of forms) {
    describe(`Form ${f.form}`, () => {
      it('creates (201) with progress; refuses unknown learner/programme, bad dates, unknown fields, a second open enrolment', async () => {
        const learnerId = await learner();
        const body = {
          learnerId,
          programmeCode: 'P1',
          startDate: '2026-02-01',
          expectedEndDate: '2026-12-31',
          fundingSource: 'MERSETA',
        };
        const created = await s.call('POST', `${f.prefix}/enrolments`, key, body);
        expect(created.status).toBe(201);
        expect(created.body).toMatchObject({
          ...body,
          status: 'enrolled',
          achievementDate: null,
          progress: {
            competent: 0,
            total: 1,
            modules: [{ code: 'M1', latestOutcome: null, assessmentId: null, moderated: false }],
          },
        });
        const again = await s.call('POST', `${f.prefix}/enrolments`, key, body);
        expect([again.status, again.body.error.code]).toEqual([409, f.codes.conflict]);
        const unknown = await s.call('POST', `${f.prefix}/enrolments`, key, {
          ...body,
          learnerId: 'lrn_00000000000000000000000000',
          programmeCode: 'NOPE',
        });
        expect([unknown.status, errorFields(unknown.body)]).toEqual([f.invalid, ['learnerId', 'programmeCode']]);
        const dates = await s.call('POST', `${f.prefix}/enrolments`, key, {
          ...body,
          startDate: '2026-02-30',
          extra: 1,
        });
        expect([dates.status, errorFields(dates.body)]).toEqual([f.invalid, ['startDate', 'extra']]);
        const order = await s.call('POST', `${f.prefix}/enrolments`, key, {
          ...body,
          learnerId: await learner(),
          expectedEndDate: '2026-01-01',
        });
        expect([order.status, errorFields(order.body)]).toEqual([f.invalid, ['expectedEndDate']]);
      });

      it('gets, lists with filters, shows history; another tenant gets 404', async () => {
        const id = await enrolmentIn('suspended');
        const got = await s.call('GET', `${f.prefix}/enrolments/${id}`, key);
        expect(got.body).toMatchObject({
          id,
          status: 'suspended',
          progress: { competent: 1, total: 1, modules: [{ latestOutcome: 'C' }] },
        });
        const list = await s.call(
          'GET',
          `${f.prefix}/enrolments?learnerId=${got.body.learnerId}&programmeCode=P1&status=suspended&startFrom=2026-01-10&startTo=2026-01-10`,
          key,
        );
        expect(list.body.data.map((e: { id: string }) => e.id)).toEqual([id]);
        expect(list.body.data[0].progress.competent).toBe(1);
        expect((await s.call('GET', `${f.prefix}/enrolments?startFrom=2026-13-01`, key)).status).toBe(f.invalid);
        expect((await s.call('GET', `${f.prefix}/enrolments?status=paused`, key)).status).toBe(f.invalid);
        const history = await s.call('GET', `${f.prefix}/enrolments/${id}/history`, key);
        expect(history.body.data.map((c: { from: string | null; to: string }) => [c.from, c.to])).toEqual([
          [null, 'enrolled'],
          ['enrolled', 'in_progress'],
          ['in_progress', 'suspended'],
        ]);
        for (const path of [`/enrolments/${id}`, `/enrolments/${id}/history`])
          expect((await s.call('GET', `/api/v1${path}`, otherKey)).status).toBe(404);
        expect(
          (await s.call('PATCH', `/api/v1/enrolments/${id}/status`, otherKey, { status: 'withdrawn' })).status,
        ).toBe(404);
        expect((await s.call('GET', `${f.prefix}/enrolments/enr_00000000000000000000000000`, key)).status).toBe(404);
      });

      it('completion is refused with the missing modules, then accepted with the achievement date', async () => {
        expect(
          (await s.call('POST', `${f.prefix}/programmes`, key, programmeBody(`C-${f.form}`, ['A', 'B']))).status,
        ).toBe(201);
        const learnerId = await learner();
        const e = await s.call('POST', `${f.prefix}/enrolments`, key, {
          learnerId,
          programmeCode: `C-${f.form}`,
          startDate: '2026-01-10',
        });
        await s.call('PATCH', `${f.prefix}/enrolments/${e.body.id}/status`, key, { status: 'in_progress' });
        await s.call('POST', `${f.prefix}/assessments`, key, assessmentBody(learnerId, 'A'));
        const refused = await s.call('PATCH', `${f.prefix}/enrolments/${e.body.id}/status`, key, {
          status: 'completed',
        });
        expect([refused.status, refused.body.error.missingModules]).toEqual([409, ['B']]);
        await s.call('POST', `${f.prefix}/assessments`, key, assessmentBody(learnerId, 'B'));
        const future = await s.call('PATCH', `${f.prefix}/enrolments/${e.body.id}/status`, key, {
          status: 'completed',
          effectiveDate: '2026-07-01',
        });
        expect([future.status, errorFields(future.body)]).toEqual([f.invalid, ['effectiveDate']]);
        const done = await s.call('PATCH', `${f.prefix}/enrolments/${e.body.id}/status`, key, { status: 'completed' });
        expect(done.body).toMatchObject({
          status: 'completed',
          achievementDate: '2026-06-01',
          progress: { competent: 2, total: 2 },
        });
      });

      it('needs a key (401), the scope (403) and the own slug (403)', async () => {
        expect((await s.call('GET', `${f.prefix}/enrolments`)).status).toBe(401);
        expect((await s.call('POST', `${f.prefix}/enrolments`, viewer, {})).status).toBe(403);
        expect((await s.call('GET', `${f.prefix}/enrolments`, viewer)).status).toBe(200);
        if (f.form !== 'A') expect((await s.call('GET', `${f.prefix}/enrolments`, otherKey)).status).toBe(403);
      });
    });
  }
});
