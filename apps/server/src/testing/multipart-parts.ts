import { expect } from 'vitest';

/** One part of a multipart body: a text field, or a file. */
export type Part = { name: string; value: string } | { name: string; filename: string; type: string; data: Buffer };

/** A multipart body with its parts in exactly the order given (to send the file before, between or after fields). */
export function multipartInOrder(parts: readonly Part[]): { body: Buffer; type: string } {
  const b = `----fundi${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    if ('data' in p)
      chunks.push(
        Buffer.from(
          `--${b}\r\nContent-Disposition: form-data; name="${p.name}"; filename="${p.filename}"\r\nContent-Type: ${p.type}\r\n\r\n`,
        ),
        p.data,
        Buffer.from('\r\n'),
      );
    else chunks.push(Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="${p.name}"\r\n\r\n${p.value}\r\n`));
  }
  chunks.push(Buffer.from(`--${b}--\r\n`));
  return { body: Buffer.concat(chunks), type: `multipart/form-data; boundary=${b}` };
}

/** Text fields as parts, in their order. */
export const fieldParts = (fields: Record<string, string>): Part[] =>
  Object.entries(fields).map(([name, value]) => ({ name, value }));

/** A multipart route under test: how to send parts under a form's prefix, and what an upload may change. */
export interface OrderedUploads {
  forms: readonly (readonly [string, string])[];
  send(prefix: string, parts: Part[]): Promise<{ status: number; body: unknown }>;
  /** The state an upload may change (records, files, usage): equal before and after a refusal. */
  state(): Promise<unknown>;
  file(): Part;
}

/**
 * For each refused set of fields, in every form: sent after the file it gets exactly the answer it gets sent before
 * the file (a validation status, the same body), and neither changes anything.
 */
export async function expectSameRefusalInEitherOrder(
  u: OrderedUploads,
  cases: readonly (readonly [string, Record<string, string>])[],
): Promise<void> {
  for (const [form, prefix] of u.forms) {
    for (const [what, fields] of cases) {
      const before = await u.state();
      const file = u.file();
      const early = await u.send(prefix, [...fieldParts(fields), file]);
      const late = await u.send(prefix, [file, ...fieldParts(fields)]);
      expect([400, 422], `${form}: ${what}`).toContain(early.status);
      expect({ status: late.status, body: late.body }, `${form}: ${what}`).toEqual({
        status: early.status,
        body: early.body,
      });
      expect(await u.state(), `${form}: ${what}`).toEqual(before);
    }
  }
}
