import { afterAll, beforeAll, expect } from 'vitest';
import { FixedClock } from '@fundi/testing';
import { startTestServer, type CallResult, type TestServer } from '@fundi/server/testing';
import type { FormUnderTest } from '../testing/http-forms.js';

/** The clock of the learners-over-HTTP test server; tests move it to stamp what they create. */
export const clock = new FixedClock(new Date('2026-06-01T08:00:00.000Z'));

/** The SQLite test server of the importing test file, started by `startLearnersServer` (a live binding). */
export let s: TestServer;

/** Starts the test server before the file's tests and closes it after them. */
export function startLearnersServer(): void {
  beforeAll(async () => {
    s = await startTestServer('sqlite', { clock });
  });
  afterAll(async () => s?.close());
}

/**
 * One API form's tenants and helpers: `acme-<i>` is the tenant under test, `other-<i>` a second one; `tenants()`
 * creates both and answers the first one's admin key.
 */
export function learnersForm(form: FormUnderTest, i: number) {
  const slug = `acme-${i}`;
  const otherSlug = `other-${i}`;
  return {
    slug,
    url: (suffix = '') => form.learners(slug) + suffix,
    async tenants(): Promise<string> {
      const admin = (await s.tenant(slug)).key;
      await s.tenant(otherSlug);
      return admin;
    },
    async expectInvalid(res: Pick<CallResult, 'status' | 'body'>, field: string) {
      expect(res.status, JSON.stringify(res.body)).toBe(form.invalidStatus);
      expect(res.body.error.code).toBe(form.codes.invalid);
      expect(typeof res.body.error.message).toBe('string');
      expect(form.fields(res.body)).toContain(field);
    },
  };
}
