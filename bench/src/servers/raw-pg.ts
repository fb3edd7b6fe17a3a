import knexFactory from 'knex';
import Koa from 'koa';
import { PG_URL } from '../pg-url.js';
import { announce } from './ready.js';
import { seedRawLearners } from './raw-learners.js';

// Reference: raw Koa + knex GET by id of the same learners table and rows Fundi serves (its migrations, 1,000
// learners), with no auth, rate limiting, logging or mapping: what a hand-written endpoint would cost.
const schema = process.env.BENCH_PG_SCHEMA!;
const { tenantId, learnerId } = await seedRawLearners(
  { kind: 'postgres', url: PG_URL, searchPath: schema, poolMax: 2 },
  2_000_000,
);
const knex = knexFactory({
  client: 'pg',
  connection: { connectionString: PG_URL, user: new URL(PG_URL).username || 'postgres' },
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
