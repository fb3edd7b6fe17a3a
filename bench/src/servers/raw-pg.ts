import knexFactory from 'knex';
import { appStorage, migrateAll } from '@fundi/server';
import Koa from 'koa';
import { openDatabase } from '@fundi/adapters';
import { Learner, newId } from '@fundi/domain';
import { learnerInput } from '../fixtures.js';
import { announce } from './ready.js';

// Reference: raw Koa + knex GET by id of the same learners table and rows Fundi serves (its migrations, 1,000
// learners), with no auth, rate limiting, logging or mapping: what a hand-written endpoint would cost.
const url = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const schema = process.env.BENCH_PG_SCHEMA!;
const target = { kind: 'postgres' as const, url, searchPath: schema, poolMax: 2 };
await migrateAll(target);
const setup = openDatabase(target);
const repos = appStorage(setup).repos;
const tenantId = newId('ten');
await repos.tenants.insert({
  id: tenantId,
  slug: `raw-${Date.now()}`,
  name: 'Raw',
  plan: 'enterprise',
  limitOverrides: {},
  createdAt: new Date().toISOString(),
});
let learnerId = '';
for (let i = 0; i < 1000; i++) {
  const l = Learner.register(learnerInput(2_000_000 + i), { id: newId('lrn'), tenantId, now: new Date() }).toSnapshot();
  await repos.learners.insert(l);
  if (i === 500) learnerId = l.id;
}
await setup.close();
const knex = knexFactory({
  client: 'pg',
  connection: { connectionString: url, user: new URL(url).username || 'postgres' },
  searchPath: [schema],
  pool: { min: 2, max: 10 },
});
const app = new Koa();
app.use(async (ctx) => {
  const row = await knex('learners')
    .where({ tenant_id: tenantId, id: ctx.path.slice(1) })
    .whereNull('erased_at')
    .first();
  if (!row) ctx.status = 404;
  else ctx.body = row;
});
const server = app.listen(0, '127.0.0.1', () => announce(server, { learnerId }));
