import { PdfStatementRenderer } from '@fundi/adapters/statements';
import type { StatementContent } from '@fundi/application/statements';
import { spawnServer } from './harness.js';

interface Info {
  key: string;
  enrolments: { learnerId: string; enrolmentId: string }[];
}

const COUNT = Number(process.env.BENCH_STATEMENTS ?? 1000);
/** Requests in flight at once: a clerk's batch from a script, not a crowd. */
const IN_FLIGHT = 4;

/** The baseline: the same number of PDFs laid out by the renderer alone, in this process (no store, no database). */
async function renderOnly(): Promise<number> {
  const r = new PdfStatementRenderer();
  const c: StatementContent = {
    statementId: 'sor_bench',
    provider: { name: 'Bench', sdpCode: 'SDP0012345' },
    learner: { name: 'First1 Last1', identifier: '9001015009087', identifierType: 'SA ID number' },
    programme: { code: 'SOR-10', name: 'Bench programme', qualificationId: '91761', nqfLevel: 4, credits: 90 },
    modules: Array.from({ length: 10 }, (_, i) => ({
      code: `M${i + 1}`,
      name: `Module M${i + 1}`,
      credits: 9,
      outcome: 'C' as const,
      achievedOn: '2025-06-02',
      assessor: 'key_bench',
    })),
    outcome: 'competent',
    issuedOn: '2026-11-27',
    verificationCode: '7K2M9QX4RT8VW3N5',
    verifyUrl: 'https://fundi.example.co.za/verify/7K2M9QX4RT8VW3N5',
  };
  const start = performance.now();
  for (let i = 0; i < COUNT; i++) await r.render(c);
  return (performance.now() - start) / 1000;
}

/** `npm run bench -- statements`: 1,000 Statements of Results issued through the API on SQLite (target < 60 s). */
export async function statementsBench(): Promise<void> {
  const fundi = await spawnServer<Info>('fundi-statements.js');
  let seconds = 0;
  let failed = 0;
  try {
    const { key, enrolments } = fundi.info;
    let next = 0;
    const start = performance.now();
    const worker = async () => {
      for (let i = next++; i < COUNT; i = next++) {
        const e = enrolments[i % enrolments.length]!;
        const r = await fetch(`${fundi.url}/api/v1/learners/${e.learnerId}/statements`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ enrolmentId: e.enrolmentId }),
        });
        if (r.status !== 201) failed++;
        await r.arrayBuffer();
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
    seconds = (performance.now() - start) / 1000;
  } finally {
    await fundi.stop();
  }
  const bare = await renderOnly();
  process.stdout.write('\n## Statements of Results (SQLite, local encrypted files)\n');
  process.stdout.write(
    '| scenario | seconds | per statement ms | failed | baseline | target |\n|---|---|---|---|---|---|\n',
  );
  process.stdout.write(
    `| ${COUNT} statements, ${IN_FLIGHT} in flight (10 modules each) | ${seconds.toFixed(1)} | ${((seconds * 1000) / COUNT).toFixed(1)} | ${failed} | renderer alone ${bare.toFixed(1)} s | < 60 s: ${seconds < 60 && failed === 0 ? 'met' : 'NOT met'} |\n`,
  );
}
