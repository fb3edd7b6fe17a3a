import { expect } from 'vitest';
import type { TestServer } from '../../testing/test-server.js';
import { programmeBody } from '../../testing/training-fixtures.js';

/** An enabled HR configuration with a fresh webhook key (optionally a custom mapping) and a programme. */
export async function hrTenant(
  s: TestServer,
  slug: string,
  opts: { fieldMapping?: Record<string, string>; programme?: string; modules?: string[] } = {},
) {
  const { key: admin, id: tenantId } = await s.tenant(slug);
  const put = await s.call('PUT', '/api/v1/hr-sync', admin, {
    enabled: true,
    authentication: { type: 'api_key', headerName: 'X-API-Key' },
    ...(opts.fieldMapping ? { fieldMapping: opts.fieldMapping } : {}),
  });
  expect(put.status).toBe(200);
  const rotated = await s.call('POST', '/api/v1/hr-sync/rotate-key', admin);
  expect(rotated.status).toBe(200);
  const code = opts.programme ?? 'SP-HR1';
  const p = await s.call('POST', '/api/v1/programmes', admin, programmeBody(code, opts.modules));
  expect(p.status).toBe(201);
  const hrKey = rotated.body.key as string;
  /** POSTs an HR event to the tenant's Form B path (or Form A's, with `form: 'A'`). */
  const post = (body: unknown, o: { key?: string | null; form?: 'A' | 'B' | 'B1'; header?: string } = {}) => {
    const path =
      o.form === 'A'
        ? '/api/v1/webhooks/hr-sync'
        : o.form === 'B1'
          ? `/v1/tenants/${slug}/webhooks/hr-sync`
          : `/api/v1/tenants/${slug}/webhooks/hr-sync`;
    const key = o.key === undefined ? hrKey : o.key;
    return s.call('POST', path, undefined, body, key === null ? {} : { [o.header ?? 'X-API-Key']: key });
  };
  return { admin, tenantId, hrKey, code, post };
}

export function employee(n: number, over: Record<string, unknown> = {}, idNumber?: string) {
  return {
    employeeId: `E-${n}`,
    firstName: 'Thandi',
    lastName: `Mokoena${n}`,
    saIdNumber: idNumber,
    email: `employee${n}@example.co.za`,
    ...over,
  };
}
