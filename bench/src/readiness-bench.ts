import { newId } from '@fundi/domain';
import { Learner } from '@fundi/domain/learners';
import type {
  ENROLMENT_STATUSES,
  AssessmentSnapshot,
  EnrolmentSnapshot,
  ProgrammeSnapshot,
} from '@fundi/domain/training';
import { qcto02LearnerRecords, type Qcto02Input, type ReadinessFinding } from '@fundi/domain/exports';
import { join } from 'node:path';
import { closeContainer, useCasesOf, type DatabaseTarget } from '@fundi/adapters';
import { containerFor, exportsCapability, migrateAll, reposOf, uowOf } from '@fundi/server';
import { learnerInput } from './fixtures.js';
import { withPgSchemas } from './harness.js';
import { scratchDir } from './scratch.js';
import { benchTenant } from './servers/bench-world.js';

const SEED = Number(process.env.BENCH_SEED ?? 10_000);
const MODULES = [
  ['P-BENCH', ['KM-01', 'PM-01', 'WM-01']],
  ['P-TWO', ['KM-11', 'PM-11']],
] as const;
type Repos = ReturnType<typeof reposOf>;

/**
 * The tenant of the dashboard bench (10,000 learners, each enrolled in two programmes, five results each), written
 * straight through the repositories (minutes faster than through the use cases), with regulator settings, and one
 * learner in 9 without an expected end date, so the file has both ready learners and findings.
 */
async function seed(repos: Repos, uow: ReturnType<typeof uowOf>, tenantId: string): Promise<void> {
  const now = new Date('2026-01-05T08:00:00.000Z');
  const at = now.toISOString();
  await repos.regulatorSettings.put(
    tenantId,
    {
      sdpCode: 'SDP0012345',
      assessmentPartnerCode: 'AQP-0099',
      assessmentCentreCode: 'AC-7788',
      readinessTypeId: '4',
      employmentStatusDefault: '03',
      achievementTypeId: '01',
      entryRequirementStatus: '01',
      flcStatus: '06',
      statementOfResultsStatus: '02',
    },
    at,
  );
  const programmes: ProgrammeSnapshot[] = MODULES.map(([code, modules]) => ({
    id: newId('prg'),
    tenantId,
    code,
    name: `Bench programme ${code}`,
    type: 'occupational_qualification',
    qualificationId: '118707',
    nqfLevel: 4,
    modules: modules.map((m, i) => ({
      code: m,
      name: `Module ${m}`,
      kind: (['knowledge', 'practical', 'workplace'] as const)[i]!,
      credits: 10,
    })),
    status: 'active',
    retiredAt: null,
    createdAt: at,
    updatedAt: at,
  }));
  for (const p of programmes) await repos.programmes.insert(p);
  for (let i = 0; i < SEED; i += 500) {
    const learners = Array.from({ length: Math.min(500, SEED - i) }, (_, j) =>
      Learner.register(learnerInput(5_000_000 + i + j), { id: newId('lrn'), tenantId, now }).toSnapshot(),
    );
    await uow.run(async (tx) => {
      await tx.learners.insertMany(learners);
      for (const [j, l] of learners.entries())
        for (const p of programmes) {
          const e: EnrolmentSnapshot = {
            id: newId('enr'),
            tenantId,
            learnerId: l.id,
            programmeId: p.id,
            programmeCode: p.code,
            startDate: '2026-01-10',
            expectedEndDate: (i + j) % 9 === 0 ? null : '2026-12-10',
            fundingSource: null,
            status: 'in_progress',
            achievementDate: null,
            createdAt: at,
            updatedAt: at,
          };
          await tx.enrolments.insert(e);
          for (const m of p.modules)
            await tx.assessments.insert({
              id: newId('asm'),
              tenantId,
              learnerId: l.id,
              enrolmentId: e.id,
              programmeId: p.id,
              programmeCode: p.code,
              moduleCode: m.code,
              assessmentType: 'summative',
              outcome: (i + j) % 7 === 0 ? 'NYC' : 'C',
              assessmentDate: '2026-03-01',
              assessorId: null,
              recordedBy: 'bench',
              createdAt: at,
              moderation: null,
            } satisfies AssessmentSnapshot);
        }
    });
  }
}

/** The reads a QCTO02 count made before they were set-based: a list per learner and per enrolment (the baseline). */
async function perLearnerCount(r: Repos, tenantId: string, today: string) {
  const filter = { status: undefined as (typeof ENROLMENT_STATUSES)[number] | undefined };
  const settings = await r.regulatorSettings.get(tenantId);
  const seen = new Set<string>();
  let ready = 0;
  const findings: ReadinessFinding[] = [];
  let after: string | null = null;
  for (;;) {
    const page = await r.enrolments.list(tenantId, filter, { kind: 'cursor', after, limit: 500 });
    for (const e of page.items) {
      const l = await r.learners.findById(tenantId, e.learnerId);
      if (!l || seen.has(l.id)) continue;
      seen.add(l.id);
      const inputs: Qcto02Input[] = [];
      const mine = await r.enrolments.list(tenantId, { learnerId: l.id }, { kind: 'cursor', after: null, limit: 500 });
      for (const en of mine.items) {
        const programme = await r.programmes.findById(tenantId, en.programmeId);
        if (!programme) continue;
        const results = await r.assessments.list(
          tenantId,
          { enrolmentId: en.id },
          { kind: 'cursor', after: null, limit: 500 },
        );
        inputs.push({ learner: l, enrolment: en, programme, assessments: results.items });
      }
      const res = qcto02LearnerRecords(inputs, settings!, today);
      if (res.findings.length) findings.push(...res.findings);
      else ready++;
    }
    if (!page.hasMore || !page.items.length) break;
    after = page.items.at(-1)!.id;
  }
  return { ready, leftOut: seen.size - ready, findings };
}

async function measure(db: 'sqlite' | 'postgres', database: DatabaseTarget): Promise<string> {
  await migrateAll(database);
  const c = containerFor({
    database,
    masterKey: Buffer.alloc(32, 1),
    logLevel: 'silent',
  });
  try {
    const tenant = await benchTenant(c);
    const tenantId = tenant.tenant.id;
    let t = performance.now();
    await seed(reposOf(c), uowOf(c), tenantId);
    const seeded = Math.round((performance.now() - t) / 1000);
    t = performance.now();
    const counted = await useCasesOf(c, exportsCapability).exports.requestRegulator.execute(tenant.actor, 'qcto02', {
      dryRun: true,
    });
    const now = performance.now() - t;
    if (!counted.dryRun) throw new Error('a dry run answers a report');
    t = performance.now();
    const before = await perLearnerCount(reposOf(c), tenantId, new Date().toISOString().slice(0, 10));
    const old = performance.now() - t;
    const r = counted.report;
    const same =
      r.ready === before.ready &&
      r.leftOut === before.leftOut &&
      JSON.stringify(r.findings) === JSON.stringify(before.findings.slice(0, r.findings.length)) &&
      r.omittedFindings === before.findings.length - r.findings.length;
    return `${db}: QCTO02 count over ${SEED.toLocaleString('en-ZA')} learners (seeded in ${seeded} s): set-based ${Math.round(now)} ms, per learner and enrolment (the reads before) ${Math.round(old)} ms in the same run (${(old / now).toFixed(1)}x); ${r.ready} ready, ${r.leftOut} left out, ${r.records} records; same findings: ${same ? 'yes' : 'NO'}`;
  } finally {
    await closeContainer(c);
  }
}

/**
 * The QCTO02 readiness count, in process, on SQLite and Postgres: the set-based reads against the reads they
 * replaced, on the same seeded tenant in the same run, and whether both give the same findings.
 */
export async function readinessBench(opts: { postgres: boolean }): Promise<void> {
  const lines = [
    await measure('sqlite', { kind: 'sqlite', filename: join(scratchDir('fundi-readiness-'), 'fundi.sqlite') }),
  ];
  if (opts.postgres)
    await withPgSchemas(1, async (url, [schema]) => {
      lines.push(await measure('postgres', { kind: 'postgres', url, searchPath: schema, poolMax: 10 }));
    });
  for (const l of lines) process.stdout.write(`- ${l}\n`);
}
