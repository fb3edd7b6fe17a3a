import { readFileSync, writeFileSync } from 'node:fs';
import { closeContainer } from '@fundi/adapters';
import { afterAll, describe, expect, it } from 'vitest';
import { containerFor, openApiDocument } from './compose.js';

/**
 * The served OpenAPI document is the contract integrators generate clients from: it changes only on purpose.
 * `openapi.snapshot.json` beside this file is the document as last agreed. After an intended change, write the new
 * one with `UPDATE_OPENAPI_SNAPSHOT=1 npx vitest run apps/server/src/openapi-snapshot.test.ts` and say in the commit
 * what changed for integrators.
 */
const SNAPSHOT = new URL('./openapi.snapshot.json', import.meta.url);

/** Every path of `a` and `b` (as `$.paths./x.get...`) where the two differ, at most `max` of them. */
function differences(a: unknown, b: unknown, at = '$', out: string[] = [], max = 40): string[] {
  if (out.length >= max) return out;
  if (typeof a !== typeof b || Array.isArray(a) !== Array.isArray(b) || a === null || b === null) {
    if (a !== b) out.push(at);
    return out;
  }
  if (typeof a !== 'object') {
    if (a !== b) out.push(at);
    return out;
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  for (const k of new Set([...Object.keys(x), ...Object.keys(y)])) {
    if (!(k in x)) out.push(`${at}.${k} (added)`);
    else if (!(k in y)) out.push(`${at}.${k} (removed)`);
    else differences(x[k], y[k], `${at}.${k}`, out, max);
    if (out.length >= max) break;
  }
  return out;
}

describe('the served OpenAPI document', () => {
  const c = containerFor(
    { database: { kind: 'sqlite', filename: ':memory:' }, masterKey: Buffer.alloc(32), logLevel: 'silent' },
    { storage: { kind: 'memory' } },
  );
  afterAll(() => closeContainer(c));

  it('is the checked-in snapshot (openapi.snapshot.json), changed only on purpose', () => {
    const served = JSON.parse(JSON.stringify(openApiDocument(c)));
    if (process.env.UPDATE_OPENAPI_SNAPSHOT === '1') {
      writeFileSync(SNAPSHOT, `${JSON.stringify(served, null, 1)}\n`);
    }
    const agreed = JSON.parse(readFileSync(SNAPSHOT, 'utf8'));
    expect(differences(agreed, served)).toEqual([]);
  });
});
