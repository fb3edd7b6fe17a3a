import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { stringify } from 'csv-stringify';
import knex from 'knex';
import { fixed, yyyymmdd } from '@fundi/domain/exports';
import { spawnServer } from './harness.js';

const MB = 1024;

/** The server's resident memory (kB) from /proc. */
function rss(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
}

interface Info {
  key: string;
  tenantId: string;
  database: string;
}

/** Runs one export through the server's worker; returns its seconds and the server's peak RSS growth (kB). */
async function throughWorker(url: string, key: string, pid: number, path: string, body: unknown) {
  const base = rss(pid);
  let peak = base;
  const sampler = setInterval(() => (peak = Math.max(peak, rss(pid))), 20);
  const start = performance.now();
  const q = await fetch(`${url}/api/v1${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  // A refused request would otherwise be polled for as `exports/undefined` for ever.
  if (!q.ok) throw new Error(`POST ${path} answered ${q.status}: ${await q.text()}`);
  const { id } = (await q.json()) as { id: string };
  let e: { status: string; rowCount: number; size: number; readiness?: unknown; error?: string } = {
    status: 'queued',
    rowCount: 0,
    size: 0,
  };
  while (e.status !== 'ready' && e.status !== 'failed') {
    await new Promise((ok) => setTimeout(ok, 50));
    e = (await (
      await fetch(`${url}/api/v1/exports/${id}`, { headers: { authorization: `Bearer ${key}` } })
    ).json()) as typeof e;
  }
  const seconds = (performance.now() - start) / 1000;
  if (process.env.BENCH_DEBUG) console.error(JSON.stringify(e).slice(0, 1500));
  clearInterval(sampler);
  return { seconds, growthKb: peak - base, ...e };
}

/** The baselines: knex reads the same rows and a loop writes them to a file (fixed width, or csv-stringify). */
async function rawLoop(database: string, tenantId: string, kind: 'fixed' | 'csv', out: string): Promise<number> {
  const db = knex({
    client: 'better-sqlite3',
    connection: { filename: database },
    useNullAsDefault: true,
  });
  const start = performance.now();
  const file = createWriteStream(out);
  const csv = kind === 'csv' ? stringify({ header: true, bom: true }) : null;
  csv?.pipe(file);
  const today = yyyymmdd(new Date().toISOString());
  let after = '';
  for (;;) {
    const rows = await db('learners').where('tenant_id', tenantId).andWhere('id', '>', after).orderBy('id').limit(1000);
    if (!rows.length) break;
    after = rows[rows.length - 1].id;
    let chunk = '';
    for (const r of rows) {
      if (csv) {
        if (!csv.write(r)) await once(csv, 'drain');
        continue;
      }
      chunk +=
        fixed('SDP0012345', 20) +
        fixed(r.id_number, 15) +
        fixed(r.alternate_id, 20) +
        fixed('533', 3) +
        fixed(r.equity_code, 10) +
        fixed(r.nationality_code, 3) +
        fixed(r.home_language_code, 10) +
        fixed(r.gender, 1) +
        fixed(r.citizen_resident_status_code, 10) +
        fixed(r.socioeconomic_status_code, 2) +
        fixed(r.disability_status_code, 10) +
        fixed(r.disability_rating, 10) +
        fixed(r.immigrant_status, 2) +
        fixed(r.last_name, 26) +
        fixed(r.first_name, 26) +
        fixed(r.middle_name, 26) +
        fixed(r.title, 10) +
        fixed(yyyymmdd(r.date_of_birth), 8) +
        fixed(r.home_address_1, 50) +
        fixed(r.home_address_2, 50) +
        fixed(r.home_address_3, 50) +
        fixed(r.postal_address_1, 50) +
        fixed(r.postal_address_2, 50) +
        fixed(r.postal_address_3, 50) +
        fixed(r.home_postal_code, 4) +
        fixed(r.postal_postal_code, 4) +
        fixed(r.phone, 20) +
        fixed((r.mobile ?? '').replace(/\D/g, ''), 20) +
        fixed('', 20) +
        fixed(r.email, 50) +
        fixed(r.province_code, 2) +
        fixed(r.statssa_area_code, 20) +
        fixed(r.popi_act_agree ? 'Yes' : 'No', 3) +
        fixed(yyyymmdd(r.popi_act_date), 8) +
        fixed(today, 8) +
        '\r\n';
    }
    if (!csv && !file.write(chunk)) await once(file, 'drain');
  }
  if (csv) csv.end();
  else file.end();
  await once(file, 'close');
  await db.destroy();
  return (performance.now() - start) / 1000;
}

/** QCTO01 and a learners CSV of BENCH_EXPORT_LEARNERS (default 100,000) learners through the worker, beside raw loops. */
export async function exportsBench(_opts: { postgres: boolean }): Promise<void> {
  const n = Number(process.env.BENCH_EXPORT_LEARNERS ?? 100_000);
  const seeded = await spawnServer<Info & { dir: string }>('fundi-exports.js', {
    BENCH_EXPORT_LEARNERS: String(n),
  });
  const server = await spawnServer<{ database: string }>('fundi-exports.js', { BENCH_EXPORT_DIR: seeded.info.dir });
  const dir = mkdtempSync(join(tmpdir(), 'fundi-bench-raw-'));
  try {
    const { key, tenantId, database } = seeded.info;
    const qcto = await throughWorker(server.url, key, server.pid, '/exports/qcto01', {});
    const rawFixed = await rawLoop(database, tenantId, 'fixed', join(dir, 'q.txt'));
    const csv = await throughWorker(server.url, key, server.pid, '/exports', { type: 'learners' });
    const rawCsv = await rawLoop(database, tenantId, 'csv', join(dir, 'l.csv'));
    process.stdout.write(`\n## Exports (${n} learners, SQLite, through the worker)\n`);
    process.stdout.write(
      '| scenario | seconds | rows | server RSS growth MB | baseline s | ratio | target |\n|---|---|---|---|---|---|---|\n',
    );
    const row = (name: string, r: typeof qcto, base: number, baseName: string, memTarget: boolean) => {
      const ratio = r.seconds / base;
      const mem = r.growthKb / MB;
      const met = ratio <= 5 && (!memTarget || mem < 64);
      process.stdout.write(
        `| ${name} | ${r.seconds.toFixed(2)} | ${r.rowCount} (${r.status}) | ${mem.toFixed(1)} | ${baseName} ${base.toFixed(2)} | ${ratio.toFixed(2)}x | ${met ? 'MET' : 'MISSED'}: within 5x${memTarget ? ', RSS growth < 64 MB' : ''} |\n`,
      );
    };
    row('QCTO01 via worker', qcto, rawFixed, 'knex + fixed-width loop', true);
    row('learners CSV via worker', csv, rawCsv, 'knex + csv-stringify loop', false);
  } finally {
    // The seeding server last: its directory (the database both used) goes when it exits.
    await server.stop();
    await seeded.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
