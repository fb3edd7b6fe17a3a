import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FixedClock } from '@fundi/testing';
import { startTestServer, type TestServer } from '@fundi/server/testing';
import { assessmentBody, enrolledLearner, errorFields, formsOf, idNumberFor } from '../testing/training-fixtures.js';

describe('assessments and moderation over HTTP, both forms [sqlite]', () => {
  let s: TestServer;
  let key: string;
  let otherKey: string;
  let moderator: string;
  let moderatorId: string;
  let assessor: string;
  let assessorKeyId: string;
  let tenantId: string;
  beforeAll(async () => {
    s = await startTestServer('sqlite', { clock: new FixedClock(new Date('2026-06-01T08:00:00.000Z')) });
    const t = await s.tenant('asm');
    key = t.key;
    tenantId = t.id;
    otherKey = (await s.tenant('asm-other')).key;
    ({ key: moderator, id: moderatorId } = await s.key('asm', 'moderator'));
    ({ key: assessor, id: assessorKeyId } = await s.key('asm', 'assessor'));
  });
  afterAll(async () => s.close());

  for (const [i, f] of formsOf('asm').entries()) {
    describe(`Form ${f.form}`, () => {
      let learnerId: string;
      let enrolmentId: string;
      let assessmentId: string;
      beforeAll(async () => {
        const e = await enrolledLearner(s, key, f.prefix, {
          code: `A-${f.form}`,
          idNumber: idNumberFor(i),
          modules: ['M1', 'M2'],
        });
        learnerId = e.learnerId;
        enrolmentId = e.enrolment.id;
      });

      it('records (201) with both events; refuses bad input without a 500', async () => {
        const created = await s.call(
          'POST',
          `${f.prefix}/assessments`,
          assessor,
          assessmentBody(learnerId, 'M1', { assessorId: 'sipho@provider.co.za' }),
        );
        expect(created.status).toBe(201);
        expect(created.body).toMatchObject({
          learnerId,
          enrolmentId,
          moduleCode: 'M1',
          outcome: 'C',
          effectiveOutcome: 'C',
          assessorId: 'sipho@provider.co.za',
          assessorEmail: 'sipho@provider.co.za',
          recordedBy: { type: 'api_key', id: assessorKeyId, name: 'assessor key' },
          moderation: null,
        });
        assessmentId = created.body.id;
        const byNewName = await s.call(
          'POST',
          `${f.prefix}/assessments`,
          assessor,
          assessmentBody(learnerId, 'M2', { assessorEmail: 'lindiwe@provider.co.za', assessmentType: 'formative' }),
        );
        expect([byNewName.status, byNewName.body.assessorEmail]).toEqual([201, 'lindiwe@provider.co.za']);
        const events = await s.storage.repos.outbox.list(tenantId, {
          types: ['assessment.recorded', 'assessment.completed'],
          limit: 100,
        });
        expect(events.filter((e) => e.data.assessmentId === assessmentId).map((e) => e.type)).toEqual([
          'assessment.recorded',
          'assessment.completed',
        ]);
        const cases: [Record<string, unknown>, string[]][] = [
          [{ outcome: 'PASS' }, ['outcome']],
          [{ assessmentType: 'final', assessmentDate: '2026-02-29' }, ['assessmentType', 'assessmentDate']],
          [{ assessmentDate: '2026-06-02' }, ['assessmentDate']],
          [{ assessmentDate: '2026-01-09' }, ['assessmentDate']],
          [{ moduleCode: 'M9' }, ['moduleCode']],
          [{ learnerId: 'lrn_00000000000000000000000000' }, ['learnerId']],
          [{ assessorId: 'not-an-email' }, ['assessorId']],
          [{ assessorEmail: 'not-an-email' }, ['assessorEmail']],
          [{ assessorEmail: 'a@provider.co.za', assessorId: 'b@provider.co.za' }, ['assessorEmail']],
          [{ score: 90 }, ['score']],
          [{ enrolmentId: 'enr_00000000000000000000000000' }, ['enrolmentId']],
        ];
        for (const [over, fields] of cases) {
          const bad = await s.call('POST', `${f.prefix}/assessments`, key, assessmentBody(learnerId, 'M1', over));
          expect([bad.status, bad.body.error.code, errorFields(bad.body)]).toEqual([
            f.invalid,
            f.codes.invalid,
            fields,
          ]);
        }
      });

      it('gets and lists with every filter; another tenant gets 404', async () => {
        await s.call(
          'POST',
          `${f.prefix}/assessments`,
          key,
          assessmentBody(learnerId, 'M2', {
            outcome: 'NYC',
            assessmentType: 'formative',
            assessmentDate: '2026-04-01',
          }),
        );
        expect((await s.call('GET', `${f.prefix}/assessments/${assessmentId}`, key)).body.id).toBe(assessmentId);
        const q = `learnerId=${learnerId}&enrolmentId=${enrolmentId}&moduleCode=M2&outcome=NYC&assessmentType=formative&from=2026-04-01&to=2026-04-30`;
        const list = await s.call('GET', `${f.prefix}/assessments?${q}`, key);
        expect(list.body.data.map((a: { moduleCode: string }) => a.moduleCode)).toEqual(['M2']);
        expect(list.body.pagination.total).toBe(1);
        expect((await s.call('GET', `${f.prefix}/assessments?outcome=maybe`, key)).status).toBe(f.invalid);
        // Incremental sync: every assessment here was recorded at the fixed clock's time, 2026-06-01T08:00Z.
        const synced = async (q: string) => {
          const r = await s.call('GET', `${f.prefix}/assessments?learnerId=${learnerId}&${q}`, key);
          return r.status === 200 ? r.body.pagination.total : r.status;
        };
        expect(await synced('updatedFrom=2026-06-01')).toBe(3);
        expect(await synced('updatedFrom=2026-06-01T08:00:00Z&updatedTo=2026-06-01')).toBe(3);
        expect(await synced('updatedFrom=2026-06-01T08:00:01Z')).toBe(0);
        expect(await synced('updatedTo=2026-05-31')).toBe(0);
        expect(await synced('updatedFrom=2026-06-02&updatedTo=2026-06-01')).toBe(f.invalid);
        expect(await synced('updatedFrom=yesterday')).toBe(f.invalid);
        expect(list.body.data[0].updatedAt).toBe('2026-06-01T08:00:00.000Z');
        expect((await s.call('GET', `/api/v1/assessments/${assessmentId}`, otherKey)).status).toBe(404);
        expect((await s.call('GET', `/api/v1/assessments?learnerId=${learnerId}`, otherKey)).body.data).toEqual([]);
      });

      it('moderates once (201), by someone other than the assessor, and shows it', async () => {
        expect((await s.call('GET', `${f.prefix}/assessments/${assessmentId}/moderation`, key)).status).toBe(404);
        const self = await s.call('POST', `${f.prefix}/assessments/${assessmentId}/moderation`, assessor, {
          decision: 'upheld',
          notes: 'x',
        });
        expect(self.status).toBe(403);
        const sameKey = await s.call('POST', `${f.prefix}/assessments/${assessmentId}/moderation`, key, {
          decision: 'upheld',
          notes: 'x',
          moderatorId: 'SIPHO@provider.co.za',
        });
        expect([sameKey.status, sameKey.body.error.code, sameKey.body.error.reason]).toEqual([
          403,
          f.codes.forbidden,
          'moderator_is_assessor',
        ]);
        const bad = await s.call('POST', `${f.prefix}/assessments/${assessmentId}/moderation`, moderator, {
          decision: 'partly',
          notes: 'x',
        });
        expect([bad.status, errorFields(bad.body)]).toEqual([f.invalid, ['decision']]);
        const done = await s.call('POST', `${f.prefix}/assessments/${assessmentId}/moderation`, moderator, {
          decision: 'overturned',
          notes: 'no evidence',
        });
        expect(done.status).toBe(201);
        expect(done.body).toMatchObject({
          assessmentId,
          decision: 'overturned',
          effectiveOutcome: 'NYC',
          originalOutcome: 'C',
          moderatorEmail: null,
          moderatedBy: { type: 'api_key', id: moderatorId, name: 'moderator key' },
        });
        expect((await s.call('GET', `${f.prefix}/assessments/${assessmentId}/moderation`, key)).body).toEqual(
          done.body,
        );
        expect((await s.call('GET', `${f.prefix}/assessments/${assessmentId}`, key)).body).toMatchObject({
          outcome: 'C',
          effectiveOutcome: 'NYC',
          moderation: { id: done.body.id },
        });
        const twice = await s.call('POST', `${f.prefix}/assessments/${assessmentId}/moderation`, moderator, {
          decision: 'upheld',
          notes: 'again',
        });
        expect([twice.status, twice.body.error.code]).toEqual([409, f.codes.conflict]);
        expect(
          (await s.call('GET', `${f.prefix}/enrolments/${enrolmentId}`, key)).body.progress.modules[0],
        ).toMatchObject({ latestOutcome: 'NYC', moderated: true });
        expect(
          (
            await s.call('POST', `/api/v1/assessments/${assessmentId}/moderation`, otherKey, {
              decision: 'upheld',
              notes: 'x',
            })
          ).status,
        ).toBe(404);
        expect((await s.call('GET', `/api/v1/assessments/${assessmentId}/moderation`, otherKey)).status).toBe(404);
      });

      it('samples reproducibly for moderation', async () => {
        const path = `${f.prefix}/moderation/sample?programmeCode=A-${f.form}&from=2026-01-01&to=2026-06-01&percent=50`;
        const first = await s.call('GET', path, moderator);
        expect(first.status).toBe(200);
        expect(first.body).toMatchObject({
          programmeCode: `A-${f.form}`,
          percent: 50,
          population: 1,
          alreadyModerated: 1,
        });
        expect(first.body.sample.map((a: { id: string }) => a.id)).toEqual([assessmentId]);
        expect((await s.call('GET', path, moderator)).body).toEqual(first.body);
        for (const q of [
          '',
          'programmeCode=NOPE',
          `programmeCode=A-${f.form}&percent=0`,
          `programmeCode=A-${f.form}&percent=ten`,
          `programmeCode=A-${f.form}&from=2026-02-30`,
        ]) {
          expect((await s.call('GET', `${f.prefix}/moderation/sample?${q}`, moderator)).status).toBe(f.invalid);
        }
        expect((await s.call('GET', path, assessor)).status).toBe(403);
      });

      it('needs a key (401), the scope (403) and the own slug (403)', async () => {
        expect((await s.call('POST', `${f.prefix}/assessments`, undefined, {})).status).toBe(401);
        expect(
          (await s.call('POST', `${f.prefix}/assessments`, moderator, assessmentBody(learnerId, 'M1'))).status,
        ).toBe(403);
        expect(
          (
            await s.call('POST', `${f.prefix}/assessments/${assessmentId}/moderation`, assessor, {
              decision: 'upheld',
              notes: 'x',
            })
          ).status,
        ).toBe(403);
        if (f.form !== 'A') expect((await s.call('GET', `${f.prefix}/assessments`, otherKey)).status).toBe(403);
      });
    });
  }
});
