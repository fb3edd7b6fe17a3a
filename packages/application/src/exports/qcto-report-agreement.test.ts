import { describe, expect, it } from 'vitest';
import { aLearner, GOLDEN_READY_PROFILE, GOLDEN_SETTINGS, idNumberFor } from '@fundi/domain/testing';
import type { LearnerSnapshot } from '@fundi/domain/learners';
import type { EnrolmentSnapshot, ProgrammeSnapshot } from '@fundi/domain/training';
import { exportWorld } from '../testing/export-world.js';

type Enrol = { programme: 'A' | 'B'; expectedEndDate?: string | null; status?: EnrolmentSnapshot['status'] };
type LearnerPlan = { name: string; fields?: Partial<LearnerSnapshot>; enrolments: Enrol[]; competent?: boolean };

/** A tenant with programmes A and B (modules KM1, PM1) and the planned learners, over the in-memory fakes. */
async function world(plans: LearnerPlan[]) {
  const { exports, actor, repos, tenant: t } = await exportWorld();
  await repos.regulatorSettings.put(t.id, GOLDEN_SETTINGS, '2026-01-01T00:00:00.000Z');
  const at = '2026-01-01T00:00:00.000Z';
  const programmes: Record<string, ProgrammeSnapshot> = {};
  for (const code of ['A', 'B']) {
    programmes[code] = {
      id: `prg_${code}${t.id}`,
      tenantId: t.id,
      code: `P-${code}`,
      name: `Programme ${code}`,
      type: 'occupational_qualification',
      qualificationId: '118707',
      nqfLevel: 5,
      modules: [
        { code: `${code}-KM1`, name: 'Knowledge', kind: 'knowledge', credits: 10 },
        { code: `${code}-PM1`, name: 'Practice', kind: 'practical', credits: 10 },
      ],
      status: 'active',
      retiredAt: null,
      createdAt: at,
      updatedAt: at,
    } as ProgrammeSnapshot;
    await repos.programmes.insert(programmes[code]!);
  }
  /** Learner id by plan name, and plan name by ID number (how a file names a learner). */
  const ids = new Map<string, string>();
  const names = new Map<string, string>();
  let n = 0;
  for (const plan of plans) {
    const idNumber = idNumberFor(7000 + n++);
    const gender = Number(idNumber.slice(6, 10)) < 5000 ? 'F' : 'M';
    const dateOfBirth = `19${idNumber.slice(0, 2)}-${idNumber.slice(2, 4)}-${idNumber.slice(4, 6)}`;
    const l = aLearner({ tenantId: t.id, idNumber, gender, dateOfBirth, ...GOLDEN_READY_PROFILE, ...plan.fields });
    await repos.learners.insert(l);
    ids.set(plan.name, l.id);
    names.set(idNumber, plan.name);
    for (const [i, en] of plan.enrolments.entries()) {
      const p = programmes[en.programme]!;
      const e: EnrolmentSnapshot = {
        id: `enr_${l.id}_${i}`,
        tenantId: t.id,
        learnerId: l.id,
        programmeId: p.id,
        programmeCode: p.code,
        startDate: '2026-02-01',
        expectedEndDate: en.expectedEndDate === undefined ? '2026-11-30' : en.expectedEndDate,
        fundingSource: null,
        status: en.status ?? 'in_progress',
        achievementDate: en.status === 'completed' ? '2026-05-01' : null,
        createdAt: at,
        updatedAt: at,
      };
      await repos.enrolments.insert(e);
      if (plan.competent && en.status === 'completed')
        for (const mod of p.modules)
          await repos.assessments.insert({
            id: `asm_${e.id}_${mod.code}`,
            tenantId: t.id,
            learnerId: l.id,
            enrolmentId: e.id,
            programmeId: p.id,
            programmeCode: p.code,
            moduleCode: mod.code,
            assessmentType: 'summative',
            outcome: 'C',
            assessmentDate: '2026-04-01',
            assessorId: null,
            recordedBy: 'key_1',
            createdAt: '2026-04-01T10:00:00.000Z',
            moderation: null,
          });
    }
  }
  return { exports, actor, ids, names, programmeA: programmes.A!.id };
}

type World = Awaited<ReturnType<typeof world>>;

/** The dry run's report, and the real run's record and file lines. */
async function bothRuns(w: World, type: 'qcto01' | 'qcto02', filters: { programmeId?: string } = {}) {
  const dry = await w.exports.requestRegulator.execute(w.actor, type, { dryRun: true, ...filters });
  if (!dry.dryRun) throw new Error('expected a dry run');
  const real = await w.exports.requestRegulator.execute(w.actor, type, filters);
  if (real.dryRun) throw new Error('expected a real run');
  await w.exports.write.execute(w.actor.tenantId, real.export.id, { attempt: 1, signal: new AbortController().signal });
  const done = await w.exports.get.execute(w.actor, real.export.id);
  expect(done.status).toBe('ready');
  const grant = await w.exports.downloadUrl.execute(w.actor, real.export.id);
  const chunks: Buffer[] = [];
  for await (const c of await (await w.exports.openDownload.execute(grant.url.split('/').pop()!, null)).open())
    chunks.push(c as Buffer);
  const lines = Buffer.concat(chunks).toString('latin1').split('\r\n');
  expect(lines.pop()).toBe('');
  return { report: dry.report, done, lines };
}

/** Checks that the dry run says exactly what the file holds, and that the file holds the `ready` learners. */
async function expectAgreement(w: World, type: 'qcto01' | 'qcto02', ready: string[], filters = {}) {
  const { report, done, lines } = await bothRuns(w, type, filters);
  const idAt = type === 'qcto01' ? 20 : 60;
  const inFile = new Set(lines.map((l) => w.names.get(l.slice(idAt, idAt + 13))));
  const leftOut = new Set(report.findings.map((f) => [...w.ids].find(([, id]) => id === f.learnerId)![0]));
  expect([...inFile].sort()).toEqual([...ready].sort());
  expect(report.records).toBe(lines.length);
  expect(done.rowCount).toBe(lines.length);
  expect(report.ready).toBe(inFile.size);
  expect(report.leftOut).toBe(leftOut.size);
  expect([...leftOut].filter((n) => inFile.has(n))).toEqual([]);
  expect(done.readiness).toEqual({
    ready: report.ready,
    leftOut: report.leftOut,
    records: report.records,
    findings: report.findings,
    omittedFindings: report.omittedFindings,
  });
  return { report, lines, leftOut: [...leftOut].sort() };
}

const naledi: LearnerPlan = {
  name: 'naledi',
  competent: true,
  enrolments: [
    { programme: 'A', status: 'completed' },
    { programme: 'B', expectedEndDate: null },
  ],
};

describe('QCTO readiness reports agree with the files the real runs write', () => {
  it('only ready learners: every learner in both files, one QCTO02 record per module per enrolment', async () => {
    const w = await world([
      { name: 'sipho', enrolments: [{ programme: 'A' }] },
      { name: 'thandi', enrolments: [{ programme: 'A' }, { programme: 'B' }] },
    ]);
    const q1 = await expectAgreement(w, 'qcto01', ['sipho', 'thandi']);
    expect(q1.report).toMatchObject({ ready: 2, leftOut: 0, records: 2, findings: [] });
    const q2 = await expectAgreement(w, 'qcto02', ['sipho', 'thandi']);
    expect(q2.report).toMatchObject({ ready: 2, leftOut: 0, records: 6, findings: [] });
  });

  it('mixed: a finding on one enrolment leaves out all of the learner, as the dry run reports', async () => {
    const w = await world([
      { name: 'sipho', enrolments: [{ programme: 'A' }] },
      naledi,
      { name: 'zoe', fields: { firstName: 'Zo=e' }, enrolments: [{ programme: 'A' }] },
      { name: 'bongani', enrolments: [{ programme: 'A', expectedEndDate: null }] },
      { name: 'lerato', enrolments: [{ programme: 'A' }, { programme: 'B' }] },
    ]);
    const q1 = await expectAgreement(w, 'qcto01', ['sipho', 'naledi', 'bongani', 'lerato']);
    expect(q1.leftOut).toEqual(['zoe']);
    const q2 = await expectAgreement(w, 'qcto02', ['sipho', 'lerato']);
    expect(q2.leftOut).toEqual(['bongani', 'naledi', 'zoe']);
    expect(q2.report).toMatchObject({ ready: 2, leftOut: 3, records: 6 });
    expect(q2.report.findings.filter((f) => f.learnerId === w.ids.get('naledi'))).toEqual([
      expect.objectContaining({ field: 'enrolment.expectedEndDate', reason: 'missing' }),
    ]);
    // Selecting programme A only: Naledi's other enrolment is not in the file, so she is ready with both modules.
    const onlyA = await expectAgreement(w, 'qcto02', ['sipho', 'naledi', 'lerato'], { programmeId: w.programmeA });
    expect(onlyA.report).toMatchObject({ ready: 3, leftOut: 2, records: 6 });
    const naledisId = [...w.names].find(([, name]) => name === 'naledi')![0];
    expect(onlyA.lines.filter((l) => l.slice(60, 73) === naledisId).map((l) => l.slice(118, 138).trim())).toEqual([
      'A-KM1',
      'A-PM1',
    ]);
  });

  it('only findings: an empty file, every learner reported once', async () => {
    const w = await world([
      naledi,
      {
        name: 'bongani',
        enrolments: [
          { programme: 'A', expectedEndDate: null },
          { programme: 'B', expectedEndDate: null },
        ],
      },
      { name: 'zoe', fields: { popiActAgree: null }, enrolments: [{ programme: 'A' }] },
    ]);
    const q2 = await expectAgreement(w, 'qcto02', []);
    expect(q2.report).toMatchObject({ ready: 0, leftOut: 3, records: 0 });
    // Both of Bongani's enrolments are named, each once.
    expect(q2.report.findings.filter((f) => f.learnerId === w.ids.get('bongani')).map((f) => f.message)).toEqual([
      expect.stringContaining('_0 (P-A)'),
      expect.stringContaining('_1 (P-B)'),
    ]);
    const q1 = await expectAgreement(w, 'qcto01', ['naledi', 'bongani']);
    expect(q1.leftOut).toEqual(['zoe']);
  });
});
