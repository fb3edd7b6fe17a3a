import { DomainError } from '@fundi/domain';
import type { Context } from 'koa';
import { DEFAULT_BODY_IDLE_TIMEOUT_MS, readWholeBody } from './body-progress.js';

const MAX_JSON_BYTES = 1024 * 1024;
/** How deep objects and arrays may nest in a JSON body (docs/api.md, "A request's limits"). */
export const MAX_JSON_DEPTH = 64;

/**
 * Reads a JSON request body. An empty body is `{}` so that missing fields are reported one by one. Any content
 * type is read as JSON (clients such as curl default to form encoding); what does not parse, or nests deeper than
 * `MAX_JSON_DEPTH`, is invalid input. A body that sends nothing for `idleMs` is answered 408.
 */
export async function readJson(ctx: Context, idleMs = DEFAULT_BODY_IDLE_TIMEOUT_MS): Promise<unknown> {
  const declared = Number(ctx.get('content-length') || 0);
  if (declared > MAX_JSON_BYTES) throw tooLarge();
  const body = await readWholeBody(ctx.req, { maxBytes: MAX_JSON_BYTES, idleMs, tooLarge });
  if (body.length === 0) return {};
  const text = body.toString('utf8');
  // Checked before anything walks the value: the text checks and the schemas recurse into it.
  if (!nestedWithin(text, MAX_JSON_DEPTH))
    throw DomainError.invalid('body', `nests objects and arrays deeper than ${MAX_JSON_DEPTH} levels`);
  try {
    return JSON.parse(text);
  } catch {
    throw DomainError.invalid('body', 'is not valid JSON');
  }
}

/**
 * Whether no object or array in the JSON text nests deeper than `max` levels (`{}` is one level). Brackets inside
 * strings do not count. One pass over the text, without recursion, so any input is safe to give it.
 */
export function nestedWithin(text: string, max: number): boolean {
  let depth = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      for (i++; i < n; i++) {
        const s = text.charCodeAt(i);
        if (s === 0x5c) i++;
        else if (s === 0x22) break;
      }
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return false;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return true;
}

function tooLarge(): DomainError {
  return new DomainError('invalid', 'body_too_large', `The request body exceeds ${MAX_JSON_BYTES} bytes`);
}
