import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachStorage } from '@fundi/adapters/testing';
import { FixedClock } from '@fundi/testing';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import { FORMS } from '../testing/http-forms.js';
import { exportWorlds, REGULATOR_SETTINGS as SETTINGS } from '../testing/export-worlds.js';
import { programmeBody } from '../testing/training-fixtures.js';

/** Where a record names its learner: QCTO01 ID number and alternative ID; QCTO02 the same further along. */
const ID_AT = { qcto01: [20, 35, 55], qcto02: [60, 75, 95] } as const;

/**
 * The dry run's readiness report describes exactly the file the real run writes (docs/api.md, "Regulator
 * files"): a learner with a finding on one enrolment only is reported and has no record in the file.
 */
describeEachStorage(
  'regulator readiness report and file agree over HTTP',
  (_get, kind) => {
    let s: TestServer;
    const clock = new FixedClock(new Date('2026-06-01T08:00:00.000Z'));
    beforeAll(async () => {
      s = await startTestServer(kind, { clock, worker: {} });
    });
    afterAll(() => s?.close());
    const { finished, download, world } = exportWorlds(() => s, `${kind}-agree`);

    describe.each(FORMS.map((f) => [f.name, f] as const))('%s', (_name, form) => {
      it('QCTO01 and QCTO02: the dry run matches the file; a learner whose second enrolment lacks an end date is left out', async () => {
        const w = await world(form);
        expect((await s.call('PUT', `${w.prefix}/settings/regulator`, w.key, SETTINGS)).status).toBe(200);
        // Zoë (ready for QCTO01, one ready enrolment) also enrols in a second programme without an end date.
        const second = `${w.code}-B`;
        expect((await s.call('POST', `${w.prefix}/programmes`, w.key, programmeBody(second))).status).toBe(201);
        const zoe = w.learners[1];
        const e = await s.call('POST', `${w.prefix}/enrolments`, w.key, {
          learnerId: zoe.id,
          programmeCode: second,
          startDate: '2026-03-01',
        });
        expect(e.status, JSON.stringify(e.body)).toBe(201);

        const learnerOf = (type: 'qcto01' | 'qcto02', line: string) => {
          const [a, b, c] = ID_AT[type];
          const id = line.slice(a, b).trim() || line.slice(b, c).trim();
          return w.learners.find((l) => (l.idNumber ?? l.alternateId) === id)?.id;
        };
        for (const type of ['qcto01', 'qcto02'] as const) {
          const dry = await s.call('POST', `${w.prefix}/exports/${type}`, w.key, { dryRun: true });
          expect(dry.status).toBe(200);
          const real = await s.call('POST', `${w.prefix}/exports/${type}`, w.key, {});
          expect(real.status).toBe(202);
          const done = await finished(w.prefix, w.key, real.body.id);
          expect(done.status).toBe('ready');
          const lines = (await download(w.prefix, w.key, real.body.id)).toString('latin1').split('\r\n');
          expect(lines.pop()).toBe('');
          const inFile = new Set(lines.map((l) => learnerOf(type, l)));
          const reported = new Set(dry.body.findings.map((f: { learnerId: string }) => f.learnerId));
          expect(inFile.has(undefined)).toBe(false);
          expect([...reported].filter((id) => inFile.has(id as string))).toEqual([]);
          expect(dry.body).toMatchObject({ ready: inFile.size, leftOut: reported.size, records: lines.length });
          expect(done.rowCount).toBe(lines.length);
          const { type: _t, dryRun: _d, ...report } = dry.body;
          expect(done.readiness).toEqual(report);
        }
        const q2 = await s.call('POST', `${w.prefix}/exports/qcto02`, w.key, { dryRun: true });
        // The first learner's name has characters QCTO01 refuses; Zoë lacks the end date; Tendai's 3 modules remain.
        expect(q2.body).toMatchObject({ ready: 1, leftOut: 2, records: 3 });
        expect(q2.body.findings.filter((f: { learnerId: string }) => f.learnerId === zoe.id)).toEqual([
          expect.objectContaining({ field: 'enrolment.expectedEndDate', reason: 'missing' }),
        ]);
      });
    });
  },
  ['sqlite', 'postgres'],
);
