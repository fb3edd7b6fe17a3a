import { DomainError } from '@fundi/domain';
import type { Context } from 'koa';

const MAX_JSON_BYTES = 1024 * 1024;

/**
 * Reads a JSON request body. An empty body is `{}` so that missing fields are reported one by one. Any content
 * type is read as JSON (clients such as curl default to form encoding); what does not parse is invalid input.
 */
export async function readJson(ctx: Context): Promise<unknown> {
  const declared = Number(ctx.get('content-length') || 0);
  if (declared > MAX_JSON_BYTES) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    size += (chunk as Buffer).length;
    if (size > MAX_JSON_BYTES) throw tooLarge();
    chunks.push(chunk as Buffer);
  }
  if (size === 0) return {};
  try {
    return JSON.parse(Buffer.concat(chunks, size).toString('utf8'));
  } catch {
    throw DomainError.invalid('body', 'is not valid JSON');
  }
}

function tooLarge(): DomainError {
  return new DomainError('invalid', 'body_too_large', `The request body exceeds ${MAX_JSON_BYTES} bytes`);
}
