import { describe, expect, it } from 'vitest';
import { aLearner, GOLDEN_READY_PROFILE, GOLDEN_SETTINGS, idNumberFor } from '@fundi/domain/testing';
import {
  ENROLMENT_STATUSES,
  type AssessmentSnapshot,
  type EnrolmentSnapshot,
  type ProgrammeSnapshot,
} from '@fundi/domain/training';
import { qcto02LearnerRecords, type Qcto02Input } from '@fundi/domain/exports';
import { exportWorld } from '../testing/export-world.js';
import { learnersOf } from '../learners/learner-columns.js';
import { pages, statusOf, type ReadRepos } from './export-reading.js';
import type { ResolvedFilters } from './export-type.js';
import { ReadinessCollector, qcto02Chunks } from './export-writers.js';
import { qcto02Learners } from './qcto02-inputs.js';

const AT = '2026-01-01T00:00:00.000Z';
const LEARNERS = 240;
const STATUSES = ['in_progress', 'completed', 'withdrawn', 'enrolled'] as const;

function programme(tenantId: string, code: string, qualificationId: string | null): ProgrammeSnapshot {
  return {
    id: `prg_${code}`,
    tenantId,
    code,
    name: `Programme ${code}`,
    type: 'occupational_qualification',
    qualificationId,
    nqfLevel: 5,
    modules: [
      { code: `${code}-KM1`, name: 'Knowledge', kind: 'knowledge', credits: 10 },
      { code: `${code}-PM1`, name: 'Practice', kind: 'practical', credits: 10 },
    ],
    status: 'active',
    retiredAt: null,
    createdAt: AT,
    updatedAt: AT,
  };
}

/**
 * A tenant of 240 learners with two or three enrolments each (over 500 enrolments, so a learner's enrolments fall on
 * different pages of the enrolment list), results with ties, some learners left out for their own fields, one
 * programme without a qualification id, one programme deleted, erased learners.
 */
async function world() {
  const w = await exportWorld();
  const { repos, tenant: t } = w;
  await repos.regulatorSettings.put(t.id, GOLDEN_SETTINGS, AT);
  const ps = [programme(t.id, 'P-A', '118707'), programme(t.id, 'P-B', null), programme(t.id, 'P-C', '99001')];
  for (const p of ps) await repos.programmes.insert(p);
  const learners = [];
  for (let n = 0; n < LEARNERS; n++) {
    const idNumber = idNumberFor(9000 + n);
    const gender = Number(idNumber.slice(6, 10)) < 5000 ? 'F' : 'M';
    const dateOfBirth = `19${idNumber.slice(0, 2)}-${idNumber.slice(2, 4)}-${idNumber.slice(4, 6)}`;
    const own = n % 11 === 0 ? { firstName: 'Zo=e' } : {};
    const l = aLearner({ tenantId: t.id, idNumber, gender, dateOfBirth, ...GOLDEN_READY_PROFILE, ...own });
    await repos.learners.insert(l);
    learners.push(l);
  }
  // The n-th enrolment of every learner before the (n+1)-th of any: ids grow with insertion.
  for (let round = 0; round < 3; round++) {
    for (const [n, l] of learners.entries()) {
      if (round === 2 && n % 3 !== 0) continue;
      const p = ps[(n + round) % ps.length]!;
      const e: EnrolmentSnapshot = {
        id: `enr_${String(round)}_${String(n).padStart(4, '0')}`,
        tenantId: t.id,
        learnerId: l.id,
        programmeId: p.id,
        programmeCode: p.code,
        startDate: `2026-0${1 + ((n + round) % 6)}-01`,
        expectedEndDate: n % 13 === 0 ? null : '2026-11-30',
        fundingSource: null,
        status: STATUSES[(n + round) % STATUSES.length]!,
        achievementDate: null,
        createdAt: AT,
        updatedAt: AT,
      };
      await repos.enrolments.insert(e);
      for (const [i, m] of p.modules.entries()) {
        if ((n + i) % 4 === 0) continue;
        // The same day and time: their order is the order read (by id), and which one is the latest depends on it.
        const results: Partial<AssessmentSnapshot>[] = [
          { outcome: (n + i) % 3 ? 'NYC' : 'C', assessmentDate: '2026-04-01', createdAt: '2026-04-01T10:00:00.000Z' },
          { outcome: 'NYC', assessmentDate: '2026-04-01', createdAt: '2026-04-01T10:00:00.000Z' },
        ];
        for (const [k, r] of results.entries())
          await repos.assessments.insert({
            id: `asm_${e.id}_${i}_${k}`,
            tenantId: t.id,
            learnerId: l.id,
            enrolmentId: e.id,
            programmeId: p.id,
            programmeCode: p.code,
            moduleCode: m.code,
            assessmentType: k === 0 ? 'formative' : 'summative',
            outcome: 'C',
            assessmentDate: '2026-03-01',
            assessorId: null,
            recordedBy: 'key_1',
            createdAt: AT,
            moderation: null,
            ...r,
          });
      }
    }
  }
  for (const l of learners.filter((_, n) => n % 37 === 5)) await repos.learners.erase(t.id, l.id, AT);
  await repos.programmes.delete(t.id, 'prg_P-C');
  return { ...w, learners };
}

/** What a QCTO02 file read before reads were set-based: a list per learner and per enrolment. */
async function perLearner(r: ReadRepos, tenantId: string, f: ResolvedFilters) {
  const filter = {
    programmeCode: f.programmeCode,
    status: statusOf(ENROLMENT_STATUSES, f.status),
    startFrom: f.from,
    startTo: f.to,
  };
  const seen = new Set<string>();
  const out: Qcto02Input[][] = [];
  for await (const batch of pages((p) => r.enrolments.list(tenantId, filter, p))) {
    const learners = await learnersOf(
      r,
      tenantId,
      batch.map((e) => e.learnerId),
    );
    for (const e of batch) {
      const l = learners.get(e.learnerId);
      if (!l || seen.has(l.id)) continue;
      seen.add(l.id);
      const inputs: Qcto02Input[] = [];
      for await (const mine of pages((p) => r.enrolments.list(tenantId, { ...filter, learnerId: l.id }, p)))
        for (const en of mine) {
          const programme = await r.programmes.findById(tenantId, en.programmeId);
          if (!programme) continue;
          const assessments: AssessmentSnapshot[] = [];
          for await (const page of pages((p) => r.assessments.list(tenantId, { enrolmentId: en.id }, p)))
            assessments.push(...page);
          inputs.push({ learner: l, enrolment: en, programme, assessments });
        }
      out.push(inputs);
    }
  }
  return out;
}

describe('QCTO02 set-based reads', () => {
  it('give every learner, enrolment and result a list per learner and per enrolment gives, in the same order', async () => {
    const w = await world();
    const filters: ResolvedFilters[] = [
      {},
      { programmeCode: 'P-A' },
      { status: 'withdrawn', from: '2026-02-01', to: '2026-04-30' },
      { programmeCode: 'P-B', status: 'in_progress', from: '2026-03-01' },
    ];
    for (const f of filters) {
      const expected = await perLearner(w.repos, w.tenant.id, f);
      const got: Qcto02Input[][] = [];
      for await (const batch of qcto02Learners(w.repos, w.tenant.id, f)) got.push(...batch.map((x) => x.inputs));
      expect(got).toEqual(expected);
      if (!Object.keys(f).length) {
        // The whole file: learners over several pages of enrolments, erased ones and a deleted programme's left out.
        expect(got.length).toBe(w.learners.filter((_, n) => n % 37 !== 5).length);
        const all = await w.repos.enrolments.list(w.tenant.id, {}, { kind: 'offset', offset: 0, limit: 1 });
        expect(all.total).toBeGreaterThan(500);
        expect(got.flat().filter((x) => x.programme.code === 'P-C')).toEqual([]);
      }

      // And the file and readiness report are what the per-learner inputs give.
      const collector = new ReadinessCollector();
      const chunks: Buffer[] = [];
      for await (const c of qcto02Chunks(w.repos, w.tenant.id, f, GOLDEN_SETTINGS, '2026-06-01', collector))
        chunks.push(c);
      const want = expected.map((inputs) => qcto02LearnerRecords(inputs, GOLDEN_SETTINGS, '2026-06-01'));
      expect(Buffer.concat(chunks).toString('latin1')).toBe(want.flatMap((x) => x.records).join(''));
      const report = collector.report();
      expect(report.findings).toEqual(want.flatMap((x) => x.findings));
      expect(report.ready).toBe(want.filter((x) => !x.findings.length).length);
      expect(report.leftOut).toBe(want.filter((x) => x.findings.length).length);
      if (!Object.keys(f).length) expect(report.ready * report.leftOut).toBeGreaterThan(0);
    }
  }, 180_000);
});
