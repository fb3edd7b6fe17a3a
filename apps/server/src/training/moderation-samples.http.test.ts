import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachStorage } from '@fundi/adapters/testing';
import { FixedClock } from '@fundi/testing';
import { startTestServer, type TestServer } from '@fundi/server/testing';
import { assessmentBody, enrolledLearner, errorFields, formsOf, idNumberFor } from '../testing/training-fixtures.js';

/** Drawing and recording moderation samples (docs/api.md, "Moderation"), in both forms, on SQLite and Postgres. */
describeEachStorage(
  'moderation samples over HTTP, both forms',
  (_get, kind) => {
    let s: TestServer;
    let key: string;
    let tenantId: string;
    let moderator: { key: string; id: string };
    let assessor: string;
    let otherModerator: string;
    beforeAll(async () => {
      s = await startTestServer(kind, { clock: new FixedClock(new Date('2026-06-01T08:00:00.000Z')) });
      const t = await s.tenant(`smp-${kind}`);
      key = t.key;
      tenantId = t.id;
      moderator = await s.key(`smp-${kind}`, 'moderator');
      assessor = (await s.key(`smp-${kind}`, 'assessor')).key;
      await s.tenant(`smp-other-${kind}`);
      otherModerator = (await s.key(`smp-other-${kind}`, 'moderator')).key;
    });
    afterAll(async () => s?.close());

    for (const [i, f] of formsOf(`smp-${kind}`).entries()) {
      describe(`Form ${f.form}`, () => {
        const code = `SMP-${f.form}`;
        let programmeId: string;
        const assessed: string[] = [];
        beforeAll(async () => {
          const e = await enrolledLearner(s, key, f.prefix, {
            code,
            idNumber: idNumberFor(100 + i),
            modules: ['M1', 'M2', 'M3'],
          });
          programmeId = e.programme.id;
          for (const [n, m] of ['M1', 'M2', 'M3'].entries()) {
            const a = await s.call(
              'POST',
              `${f.prefix}/assessments`,
              assessor,
              assessmentBody(e.learnerId, m, { assessmentDate: `2026-03-0${n + 1}` }),
            );
            expect(a.status).toBe(201);
            assessed.push(a.body.id);
          }
        });

        it('draws (201, Location) the sample the GET gives, records it and writes its event', async () => {
          const query = `programmeCode=${code}&from=2026-03-01&percent=50`;
          const peek = await s.call('GET', `${f.prefix}/moderation/sample?${query}`, moderator.key);
          expect(peek.status).toBe(200);
          const drawn = await s.call('POST', `${f.prefix}/moderation/samples`, moderator.key, {
            programmeCode: code,
            from: '2026-03-01',
            percent: 50,
          });
          expect(drawn.status, JSON.stringify(drawn.body)).toBe(201);
          expect(drawn.body).toEqual({
            id: expect.stringMatching(/^smp_/),
            programmeId,
            programmeCode: code,
            from: '2026-03-01',
            to: null,
            percent: 50,
            population: 3,
            alreadyModerated: 0,
            assessmentIds: peek.body.sample.map((a: { id: string }) => a.id),
            dueBy: '2026-06-15',
            drawnBy: { type: 'api_key', id: moderator.id, name: 'moderator key' },
            drawnAt: '2026-06-01T08:00:00.000Z',
          });
          expect(drawn.body.assessmentIds).toHaveLength(2);
          expect(drawn.body.assessmentIds.every((id: string) => assessed.includes(id))).toBe(true);
          expect(drawn.headers.get('location')).toBe(`${f.prefix}/moderation/samples/${drawn.body.id}`);
          const read = await s.call('GET', `${f.prefix}/moderation/samples/${drawn.body.id}`, moderator.key);
          expect([read.status, read.body]).toEqual([200, drawn.body]);

          // Named by id, with a due date: the same request, so the same sample.
          const byId = await s.call('POST', `${f.prefix}/moderation/samples`, moderator.key, {
            programmeId,
            from: '2026-03-01',
            percent: 50,
            dueBy: '2026-06-30',
          });
          expect(byId.status).toBe(201);
          expect(byId.body).toMatchObject({ assessmentIds: drawn.body.assessmentIds, dueBy: '2026-06-30' });

          const events = await s.storage.repos.outbox.list(tenantId, {
            types: ['moderation.sample_drawn'],
            limit: 100,
          });
          const mine = events.filter((e) => e.data.programmeCode === code);
          expect(mine.map((e) => e.data.sampleId)).toEqual([drawn.body.id, byId.body.id]);
          expect(mine[0]!.data).toMatchObject({ programmeId, count: 2, population: 3, dueBy: '2026-06-15' });

          const list = await s.call('GET', `${f.prefix}/moderation/samples?programmeCode=${code}`, moderator.key);
          expect(list.status).toBe(200);
          expect(list.body.data.map((x: { id: string }) => x.id)).toEqual([drawn.body.id, byId.body.id]);
          expect(list.body.data[0]).toEqual(drawn.body);
          const byProgramme = await s.call(
            'GET',
            `${f.prefix}/moderation/samples?programmeId=${programmeId}&limit=1`,
            moderator.key,
          );
          expect(byProgramme.body.data.map((x: { id: string }) => x.id)).toEqual([drawn.body.id]);
          const none = await s.call('GET', `${f.prefix}/moderation/samples?programmeCode=NOPE`, moderator.key);
          expect([none.status, none.body.data]).toEqual([200, []]);
        });

        it('refuses bad input in the form envelope and records nothing', async () => {
          const before = (
            await s.storage.repos.outbox.list(tenantId, { types: ['moderation.sample_drawn'], limit: 500 })
          ).length;
          const cases: [Record<string, unknown>, string][] = [
            [{}, 'programmeId'],
            [{ programmeCode: 'NOPE' }, 'programmeCode'],
            [{ programmeId: 'prg_00000000000000000000000000' }, 'programmeId'],
            [{ programmeId, programmeCode: 'SMP-OTHER' }, 'programmeCode'],
            [{ programmeCode: code, percent: 0 }, 'percent'],
            [{ programmeCode: code, percent: 'ten' }, 'percent'],
            [{ programmeCode: code, from: '2026-02-30' }, 'from'],
            [{ programmeCode: code, from: '2026-04-01', to: '2026-03-01' }, 'to'],
            [{ programmeCode: code, dueBy: '2026-05-31' }, 'dueBy'],
            [{ programmeCode: code, size: 3 }, 'size'],
          ];
          for (const [body, field] of cases) {
            const bad = await s.call('POST', `${f.prefix}/moderation/samples`, moderator.key, body);
            expect([bad.status, bad.body.error.code, errorFields(bad.body)], JSON.stringify(body)).toEqual([
              f.invalid,
              f.codes.invalid,
              [field],
            ]);
          }
          const after = (
            await s.storage.repos.outbox.list(tenantId, { types: ['moderation.sample_drawn'], limit: 500 })
          ).length;
          expect(after).toBe(before);
          const missing = await s.call('GET', `${f.prefix}/moderation/samples/smp_nope`, moderator.key);
          expect([missing.status, missing.body.error.code]).toEqual([404, f.codes.notFound]);
        });

        it("needs assessments:moderate; another tenant's sample is not found", async () => {
          const drawn = await s.call('POST', `${f.prefix}/moderation/samples`, moderator.key, { programmeCode: code });
          expect(drawn.status).toBe(201);
          expect(
            (await s.call('POST', `${f.prefix}/moderation/samples`, assessor, { programmeCode: code })).status,
          ).toBe(403);
          expect((await s.call('GET', `${f.prefix}/moderation/samples`, assessor)).status).toBe(403);
          expect((await s.call('GET', `${f.prefix}/moderation/samples/${drawn.body.id}`, assessor)).status).toBe(403);
          expect((await s.call('POST', `${f.prefix}/moderation/samples`, undefined, {})).status).toBe(401);
          if (f.form === 'A') {
            const other = await s.call('GET', `/api/v1/moderation/samples/${drawn.body.id}`, otherModerator);
            expect(other.status).toBe(404);
            const list = await s.call('GET', '/api/v1/moderation/samples', otherModerator);
            expect(list.body.data).toEqual([]);
          } else {
            const other = await s.call('GET', `${f.prefix}/moderation/samples/${drawn.body.id}`, otherModerator);
            expect(other.status).toBe(403);
          }
        });
      });
    }
  },
  ['sqlite', 'postgres'],
);
