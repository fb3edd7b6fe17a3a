import { availableParallelism } from 'node:os';
import { learnersBench } from './learners-bench.js';
import { learnersInProcessBench } from './learners-inprocess-bench.js';
import { learnersInProcessPgBench } from './learners-inprocess-pg-bench.js';
import { trainingBench } from './training-bench.js';
import { webhooksBench } from './webhooks-bench.js';
import { evidenceBench } from './evidence-bench.js';
import { hrSyncBench } from './hr-sync-bench.js';
import { importsBench } from './imports-bench.js';
import { exportsBench } from './exports-bench.js';
import { dashboardBench } from './dashboard-bench.js';
import { readinessBench } from './readiness-bench.js';
import { notificationsBench } from './notifications-bench.js';
import { retentionBench } from './retention-bench.js';
import { scalingBench } from './scaling-bench.js';
import { statementsBench } from './statements-bench.js';
import { auditChainBench } from './audit-chain-bench.js';

// `npm run bench [-- <scenario...>]`: every scenario by default. BENCH_SECONDS sets the measuring time (default 5).
const SCENARIOS: Record<string, (opts: { postgres: boolean }) => Promise<void>> = {
  learners: learnersBench,
  'learners-inprocess': learnersInProcessBench,
  'learners-inprocess-pg': learnersInProcessPgBench,
  training: trainingBench,
  webhooks: webhooksBench,
  evidence: evidenceBench,
  'hr-sync': hrSyncBench,
  imports: importsBench,
  exports: exportsBench,
  dashboard: dashboardBench,
  readiness: readinessBench,
  notifications: notificationsBench,
  retention: retentionBench,
  scaling: scalingBench,
  statements: statementsBench,
  'audit-chain': auditChainBench,
};

const wanted = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const postgres = !process.argv.includes('--no-postgres');
process.stdout.write(
  `# Fundi benchmarks (${new Date().toISOString()}, node ${process.version}, ${availableParallelism()} cores)\n`,
);
for (const [name, run] of Object.entries(SCENARIOS)) {
  if (wanted.length && !wanted.includes(name)) continue;
  // Its app writes its access lines to stdout: run it by name, with stdout sent elsewhere (the table is on stderr).
  // `scaling` starts a Postgres cluster of its own and runs for minutes: it too runs by name only.
  if (!wanted.length && (name === 'learners-inprocess' || name === 'learners-inprocess-pg' || name === 'scaling'))
    continue;
  await run({ postgres });
}
