import knexFactory from 'knex';
import Koa from 'koa';
import { announce } from './ready.js';

// Reference: raw Koa + knex GET by id on Postgres, no auth, rate limiting or logging.
const url = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const knex = knexFactory({ client: 'pg', connection: { connectionString: url, user: new URL(url).username || 'postgres' }, pool: { min: 2, max: 10 } });
await knex.raw('DROP TABLE IF EXISTS bench_raw_learners');
await knex.raw('CREATE TABLE bench_raw_learners (id TEXT PRIMARY KEY, tenant_id TEXT, first_name TEXT, last_name TEXT, id_number TEXT, email TEXT, created_at TEXT)');
await knex('bench_raw_learners').insert(Array.from({ length: 1000 }, (_, i) => ({ id: `lrn_${i}`, tenant_id: 't', first_name: `F${i}`, last_name: `L${i}`, id_number: String(9001049818080 + i), email: `l${i}@x.co.za`, created_at: new Date().toISOString() })));
const app = new Koa();
app.use(async (ctx) => {
  const row = await knex('bench_raw_learners').where({ tenant_id: 't', id: ctx.path.slice(1) }).first();
  if (!row) ctx.status = 404;
  else ctx.body = row;
});
const server = app.listen(0, '127.0.0.1', () => announce(server, { learnerId: 'lrn_500' }));
