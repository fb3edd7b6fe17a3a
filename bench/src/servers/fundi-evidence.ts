import './as-started.js';
import { join } from 'node:path';
import { T, resolve, useCasesOf, type DatabaseTarget } from '@fundi/adapters';
import { operator } from '@fundi/application';
import { containerFor, httpApp, learners, migrateAll, tenants, training } from '@fundi/server';
import { learnerInput } from '../fixtures.js';
import { announce } from './ready.js';
import { scratchDir } from '../scratch.js';

// The real server (embedded default: SQLite and encrypted files on local disk) with a learner enrolled in a
// programme, so evidence can be uploaded for module M01.
const dir = scratchDir('fundi-bench-evidence-');
const database: DatabaseTarget = { kind: 'sqlite', filename: join(dir, 'fundi.sqlite') };
await migrateAll(database);
const config = {
  database,
  masterKey: Buffer.alloc(32, 1),
  logLevel: 'info',
  authCacheMs: 0,
  anonymousLimits: { perMinute: 1_000_000, perDay: null },
  trustProxy: false,
  fileStore: { kind: 'local' as const, dir: join(dir, 'files') },
};
const c = containerFor(config);
const created = await useCasesOf(c, tenants).createTenant.execute({
  slug: `bench-${Date.now()}`,
  name: 'Bench',
  plan: 'enterprise',
});
await resolve(c, T.SqlDb).run('UPDATE tenants SET limit_overrides = ? WHERE id = ?', [
  JSON.stringify({ perMinute: 1_000_000_000, perDay: null }),
  created.tenant.id,
]);
const actor = operator(created.tenant.id);
await useCasesOf(c, training).createProgramme.execute(actor, {
  code: 'BENCH-EV',
  name: 'Bench programme',
  type: 'skills_programme',
  modules: [{ code: 'M01', name: 'Module', kind: 'practical' }],
});
const learner = await useCasesOf(c, learners).registerLearner.execute(actor, learnerInput(4_000_001));
await useCasesOf(c, training).enrolLearner.execute(actor, {
  learnerId: learner.id,
  programmeCode: 'BENCH-EV',
  startDate: '2025-01-06',
});

const server = httpApp(c, config).listen(0, '127.0.0.1', () =>
  announce(server, { key: created.apiKey.key, learnerId: learner.id }),
);
