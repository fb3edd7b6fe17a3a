import { expect } from 'vitest';
import { idNumberFor } from '@fundi/domain/testing';
import type { TestServer } from './test-server.js';

/** A multipart body: text fields first, then the file part. */
export function multipart(fields: Record<string, string>, file: { name: string; data: Buffer }) {
  const b = `----fundi${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields))
    parts.push(Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  parts.push(
    Buffer.from(
      `--${b}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: text/csv\r\n\r\n`,
    ),
    file.data,
    Buffer.from(`\r\n--${b}--\r\n`),
  );
  return { body: Buffer.concat(parts), type: `multipart/form-data; boundary=${b}` };
}

export function upload(
  s: TestServer,
  key: string,
  prefix: string,
  type: string,
  data: Buffer | string,
  options?: Record<string, unknown>,
  name = `${type}.csv`,
) {
  const fields: Record<string, string> = { type };
  if (options) fields.options = JSON.stringify(options);
  const m = multipart(fields, { name, data: Buffer.isBuffer(data) ? data : Buffer.from(data) });
  return s.call('POST', `${prefix}/imports`, key, m.body, { 'content-type': m.type });
}

/** Polls the import until it reaches one of `statuses`. */
export async function settled(s: TestServer, key: string, prefix: string, id: string, statuses: string[], q = '') {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const r = await s.call('GET', `${prefix}/imports/${id}${q}`, key);
    expect(r.status).toBe(200);
    if (statuses.includes(r.body.status)) return r.body;
    if (Date.now() > deadline) throw new Error(`import ${id} stuck in ${r.body.status}`);
    await new Promise((ok) => setTimeout(ok, 30));
  }
}

/** A learner CSV line in the template's first columns. */
export function learnerLine(n: number, o: { email?: string; idNumber?: string } = {}): string {
  return `Name${n},Surname${n},${o.idNumber ?? idNumberFor(n)},${o.email ?? `learner${n}@example.com`},0821234567`;
}

export const LEARNER_HEADER = 'first_name,last_name,id_number,email,mobile';

export { idNumberFor };
