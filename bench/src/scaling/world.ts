import { closeContainer, type DatabaseTarget } from '@fundi/adapters';
import { containerFor, migrateAll } from '@fundi/server';
import pg from 'pg';
import { benchTenant } from '../servers/bench-world.js';
import { idNumberFor } from '../fixtures.js';

export const MASTER_KEY = Buffer.alloc(32, 21);

/** Where the measured processes keep their data: a database (schema `public`) or a schema of the shared server. */
export interface Place {
  /** Host and port of the Postgres server. */
  host: string;
  port: number;
  database: string;
  /** Set on a shared server: the bench's own schema. */
  schema?: string;
}

export function directUrl(p: Place): string {
  return `postgres://postgres@${p.host}:${p.port}/${p.database}`;
}

export function targetOf(p: Place): DatabaseTarget {
  return { kind: 'postgres', url: directUrl(p), searchPath: p.schema, poolMax: 5 };
}

/** A client of the place itself (its schema first in the search path), for the bench's own reads. */
export async function probeClient(p: Place): Promise<pg.Client> {
  const c = new pg.Client({
    connectionString: directUrl(p),
    ...(p.schema ? { options: `-c search_path=${p.schema}` } : {}),
  });
  await c.connect();
  return c;
}

/** Migrates the place and makes a tenant without rate limits; returns its API key. */
export async function seedTenant(p: Place): Promise<{ key: string; tenantId: string }> {
  const target = targetOf(p);
  await migrateAll(target);
  const c = containerFor({
    database: target,
    masterKey: MASTER_KEY,
    logLevel: 'silent',
    webhooks: { allowHttp: true, allowHosts: ['127.0.0.1'], timeoutMs: 10_000 },
  });
  try {
    const t = await benchTenant(c, `scaling-${Date.now()}`, 'Scaling Academy');
    return { key: t.apiKey.key, tenantId: t.tenant.id };
  } finally {
    await closeContainer(c);
  }
}

/** A JSON call to the API with the tenant's key; throws on an unexpected status. */
export async function call<T = Record<string, unknown>>(
  base: string,
  key: string,
  method: string,
  path: string,
  body?: unknown,
  expect = [200, 201, 202, 204],
): Promise<T> {
  const res = await fetch(base + path, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!expect.includes(res.status)) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
  return (text ? JSON.parse(text) : {}) as T;
}

/** A learners CSV of `rows` rows from `from` on; every 50th row has an ID number whose check digit is wrong. */
export function learnersCsv(from: number, rows: number): Buffer {
  const lines = ['first_name,last_name,id_number,email,mobile,employee_ref'];
  for (let i = from; i < from + rows; i++) {
    const id = idNumberFor(i);
    const bad = (i - from) % 50 === 49 ? `${id.slice(0, 12)}${(Number(id[12]) + 1) % 10}` : id;
    lines.push(`Name${i},"Surname, ${i}",${bad},imported${i}@example.co.za,0821234567,E${i}`);
  }
  return Buffer.from(`${lines.join('\r\n')}\r\n`);
}

/** POST /imports of a file, `dryRun: false` (validated and written in one go). */
export async function uploadImport(base: string, key: string, csv: Buffer): Promise<string> {
  const b = `----scaling${Date.now()}`;
  const body = Buffer.concat([
    Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="type"\r\n\r\nlearners\r\n`),
    Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="options"\r\n\r\n{"dryRun":false}\r\n`),
    Buffer.from(
      `--${b}\r\nContent-Disposition: form-data; name="file"; filename="cohort.csv"\r\nContent-Type: text/csv\r\n\r\n`,
    ),
    csv,
    Buffer.from(`\r\n--${b}--\r\n`),
  ]);
  const res = await fetch(`${base}/api/v1/imports`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': `multipart/form-data; boundary=${b}` },
    body,
  });
  const json = (await res.json()) as { id: string };
  if (res.status !== 202) throw new Error(`import upload: ${res.status} ${JSON.stringify(json)}`);
  return json.id;
}

/** Waits until `check` holds, asking every 20 ms; fails naming `what` after `ms`. */
export async function until(what: string, check: () => Promise<boolean>, ms = 120_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((ok) => setTimeout(ok, 20));
  }
}

/** A count from the place (`SELECT count(*) ...`). */
export async function count(c: pg.Client, sql: string, values: unknown[] = []): Promise<number> {
  const r = await c.query<{ n: string }>(sql, values);
  return Number(r.rows[0]?.n ?? 0);
}
