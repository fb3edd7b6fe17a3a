import { randomUUID } from 'node:crypto';
import knexFactory from 'knex';
import Koa from 'koa';
import { PG_URL } from '../pg-url.js';
import { announce } from './ready.js';
import { seedRawLearners } from './raw-learners.js';

// References: raw Koa + knex over the same learners table and rows Fundi serves (its migrations, 1,000 learners),
// with no auth, rate limiting, logging, validation or mapping: what hand-written endpoints would cost.
//   GET /{id}     one learner row, JSON'd
//   GET /list     the first 100 live learners of the tenant in id order, JSON'd as {data: [...]}
//   POST /        the body's learner INSERTed with one audit_log row in one transaction, the row answered (201)
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

async function readJson(req: NodeJS.ReadableStream): Promise<Record<string, string>> {
  const parts: Buffer[] = [];
  for await (const c of req) parts.push(c as Buffer);
  return JSON.parse(Buffer.concat(parts).toString('utf8')) as Record<string, string>;
}

const app = new Koa();
app.use(async (ctx) => {
  if (ctx.method === 'POST') {
    const b = await readJson(ctx.req);
    const now = new Date().toISOString();
    const id = `lrn_${randomUUID()}`;
    const idNumber = b.idNumber!;
    const row = {
      id,
      tenant_id: tenantId,
      first_name: b.firstName,
      last_name: b.lastName,
      id_number: idNumber,
      email: b.email,
      email_lower: b.email?.toLowerCase(),
      mobile: b.mobile,
      employee_ref: b.employeeRef,
      date_of_birth: `19${idNumber.slice(0, 2)}-${idNumber.slice(2, 4)}-${idNumber.slice(4, 6)}`,
      gender: Number(idNumber[6]) >= 5 ? 'M' : 'F',
      citizenship: idNumber[10] === '0' ? 'citizen' : 'permanent_resident',
      created_at: now,
      updated_at: now,
    };
    await knex.transaction(async (trx) => {
      await trx('learners').insert(row);
      await trx('audit_log').insert({
        id: `aud_${randomUUID()}`,
        tenant_id: tenantId,
        actor: 'operator',
        action: 'learner.created',
        resource_type: 'learner',
        resource_id: id,
        learner_id: id,
        at: now,
        details: '{}',
      });
    });
    ctx.status = 201;
    ctx.body = row;
    return;
  }
  if (ctx.path === '/list') {
    ctx.body = {
      data: await knex('learners').where({ tenant_id: tenantId }).whereNull('erased_at').orderBy('id').limit(100),
    };
    return;
  }
  const row = await knex('learners')
    .where({ tenant_id: tenantId, id: ctx.path.slice(1) })
    .whereNull('erased_at')
    .first();
  if (!row) ctx.status = 404;
  else ctx.body = row;
});
const server = app.listen(0, '127.0.0.1', () => announce(server, { learnerId }));
