import autocannon from 'autocannon';
import type { Rig } from './rig.js';
import { call, count } from './world.js';

export interface TableSize {
  table: string;
  rows: number;
  /** pg_total_relation_size: heap, indexes and TOAST. */
  totalBytes: number;
  heapBytes: number;
  indexBytes: number;
}

const MODULES = Array.from({ length: 12 }, (_, i) => `M${String(i + 1).padStart(2, '0')}`);
const ENROLMENTS = Number(process.env.BENCH_SCALING_ENROLMENTS ?? 1000);
const ASSESSMENTS = Number(process.env.BENCH_SCALING_ASSESSMENTS ?? 3000);
const HR_EVENTS = Number(process.env.BENCH_SCALING_HR_EVENTS ?? 2000);

async function posts(url: string, key: string, amount: number, body: (n: number) => unknown): Promise<void> {
  let n = 0;
  const r = await autocannon({
    url,
    method: 'POST',
    connections: 10,
    amount,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    requests: [{ setupRequest: (req: autocannon.Request) => ({ ...req, body: JSON.stringify(body(n++)) }) }],
  });
  if (r.non2xx + r.errors) throw new Error(`${r.non2xx + r.errors} of ${amount} POSTs to ${url} failed`);
}

/**
 * Adds what the operations did not write (enrolments and assessments through the API; HR inbound log entries as
 * rows of the width an HR system's learner event has, since receiving them needs a signed HR feed), vacuums and
 * analyses every table, then reads each one's size and row count.
 */
export async function measureSizes(rig: Rig): Promise<TableSize[]> {
  const { api, key, probe } = rig;
  process.stderr.write('scaling: sizes\n');
  await call(api.url, key, 'POST', '/api/v1/programmes', {
    code: 'SCALE-12',
    name: 'Scaling programme',
    type: 'occupational_qualification',
    nqfLevel: 4,
    modules: MODULES.map((code, i) => ({
      code,
      name: `Module ${code}`,
      kind: ['knowledge', 'practical', 'workplace'][i % 3],
      credits: 10,
    })),
  });
  const learners = (
    await probe.query<{ id: string }>('SELECT id FROM learners ORDER BY id LIMIT $1', [ENROLMENTS])
  ).rows.map((r) => r.id);
  await posts(`${api.url}/api/v1/enrolments`, key, learners.length, (n) => ({
    learnerId: learners[n],
    programmeCode: 'SCALE-12',
    startDate: '2025-01-06',
  }));
  await posts(`${api.url}/api/v1/assessments`, key, ASSESSMENTS, (n) => ({
    learnerId: learners[n % learners.length],
    moduleCode: MODULES[Math.floor(n / learners.length) % MODULES.length],
    assessmentType: 'summative',
    outcome: n % 5 ? 'C' : 'NYC',
    assessmentDate: '2025-06-02',
  }));
  const tenant = (await probe.query<{ id: string }>('SELECT id FROM tenants LIMIT 1')).rows[0]!.id;
  await probe.query(
    `INSERT INTO hr_events (id, tenant_id, event_key, processed_key, hr_event_id, event, received_at, result, learner_id, data)
     SELECT 'hre_' || lpad(i::text, 22, '0'), $1, 'evt-' || i, 'evt-' || i, 'hr-' || i, 'employee.updated',
            '2026-01-01T00:00:00.000Z', 'processed', 'lrn_' || lpad(i::text, 22, '0'),
            json_build_object('employeeRef', 'E' || i, 'firstName', 'Name' || i, 'lastName', 'Surname' || i,
              'idNumber', lpad(i::text, 13, '8'), 'email', 'person' || i || '@example.co.za', 'mobile', '+27821234567',
              'department', 'Operations', 'jobTitle', 'Plant operator', 'employer', 'Acme Mining')::text
     FROM generate_series(1, $2::int) AS i`,
    [tenant, HR_EVENTS],
  );
  await probe.query('VACUUM ANALYZE');
  const tables = (
    await probe.query<{ name: string; total: string; heap: string; idx: string }>(
      `SELECT c.relname AS name, pg_total_relation_size(c.oid) AS total, pg_relation_size(c.oid) AS heap,
              pg_indexes_size(c.oid) AS idx
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = current_schema() AND c.relkind = 'r' ORDER BY 1`,
    )
  ).rows;
  const out: TableSize[] = [];
  for (const t of tables)
    out.push({
      table: t.name,
      rows: await count(probe, `SELECT count(*) AS n FROM "${t.name}"`),
      totalBytes: Number(t.total),
      heapBytes: Number(t.heap),
      indexBytes: Number(t.idx),
    });
  return out;
}

export function printSizes(sizes: readonly TableSize[]): void {
  process.stdout.write(
    '\n## Scaling: bytes per row (pg_total_relation_size after VACUUM ANALYZE, tables the bench filled)\n\n| table | rows | total bytes | heap | indexes | total bytes/row |\n|---|---|---|---|---|---|\n',
  );
  const filled = sizes.filter((s) => s.rows >= 500).sort((a, b) => b.totalBytes - a.totalBytes);
  for (const s of filled)
    process.stdout.write(
      `| ${s.table} | ${s.rows} | ${s.totalBytes} | ${s.heapBytes} | ${s.indexBytes} | ${Math.round(s.totalBytes / s.rows)} |\n`,
    );
  const rest = sizes.filter((s) => s.rows < 500);
  process.stdout.write(
    `\nThe other ${rest.length} tables hold fewer than 500 rows each here (${rest.reduce((n, s) => n + s.totalBytes, 0)} bytes together, mostly empty pages of indexes).\n`,
  );
}
