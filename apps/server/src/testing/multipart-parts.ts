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
