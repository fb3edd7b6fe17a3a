import { DomainError } from '@fundi/domain';
import { describe, expect, it } from 'vitest';
import { formA } from './form-a.js';
import { formB } from './form-b.js';

const a = formA({ encode: (s) => s, decode: (s) => s });
const b = formB();
const lost = new Error('terminating connection due to administrator command');

describe('an unreachable database in each form', () => {
  it('is 503 service_unavailable (A) / SERVICE_UNAVAILABLE (B) in the form envelope, naming no field and no cause', () => {
    const e = DomainError.storageUnavailable(lost);
    expect(a.error(e)).toEqual({
      status: 503,
      body: { error: { code: 'service_unavailable', message: e.message, details: [] } },
    });
    expect(b.error(e)).toEqual({
      status: 503,
      body: { error: { code: 'SERVICE_UNAVAILABLE', message: e.message, details: {} } },
    });
    expect(JSON.stringify(a.error(e).body)).not.toContain('administrator');
  });

  it('says so when a COMMIT was lost on its way: outcome "unknown"', () => {
    const e = DomainError.storageUnavailable(lost, true);
    expect(a.error(e).body).toMatchObject({ error: { code: 'service_unavailable', outcome: 'unknown' } });
    expect(b.error(e).body).toMatchObject({ error: { code: 'SERVICE_UNAVAILABLE', outcome: 'unknown' } });
    expect(e.message).toMatch(/may or may not have been saved/);
  });
});
