import { describeEachStorage } from '@fundi/adapters/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import { errorFields, formsOf } from '../testing/training-fixtures.js';

describeEachStorage('HR sync configuration over HTTP', (_get, kind) => {
  let s: TestServer;
  let admin: string;

  beforeAll(async () => {
    s = await startTestServer(kind);
    admin = (await s.tenant('hr-conf')).key;
  });
  afterAll(() => s?.close());

  for (const f of formsOf('hr-conf')) {
    it(`${f.form}: the initial configuration, a PUT, validation, the SSRF rule and admins only`, async () => {
      const got = await s.call('GET', `${f.prefix}/hr-sync`, admin);
      expect(got.status).toBe(200);
      expect(got.body).toMatchObject({
        system: 'custom',
        inboundUrl: `${s.url}/api/v1/tenants/hr-conf/webhooks/hr-sync`,
        authentication: { type: 'api_key', headerName: expect.any(String) },
        fieldMapping: {
          employeeId: 'learner.employeeRef',
          firstName: 'learner.firstName',
          lastName: 'learner.lastName',
        },
      });
      const mapping = {
        staffNo: 'learner.employeeRef',
        firstName: 'learner.firstName',
        lastName: 'learner.lastName',
        saIdNumber: 'learner.idNumber',
      };
      const put = await s.call('PUT', `${f.prefix}/hr-sync`, admin, {
        ...got.body,
        enabled: true,
        authentication: { type: 'api_key', headerName: `X-HR-${f.form}` },
        fieldMapping: mapping,
        keyPrefix: undefined,
        previousKeyExpiresAt: undefined,
        outbound: undefined,
        updatedAt: undefined,
      });
      expect(put.status).toBe(200);
      expect(put.body).toMatchObject({
        enabled: true,
        fieldMapping: mapping,
        authentication: { headerName: `X-HR-${f.form}` },
      });
      expect((await s.call('GET', `${f.prefix}/hr-sync`, admin)).body.fieldMapping).toEqual(mapping);

      const unknownTarget = await s.call('PUT', `${f.prefix}/hr-sync`, admin, {
        fieldMapping: { ...mapping, shoe: 'learner.shoeSize' },
      });
      expect(unknownTarget.status).toBe(f.invalid);
      expect(errorFields(unknownTarget.body)).toEqual(['fieldMapping.shoe']);
      const noIdentity = await s.call('PUT', `${f.prefix}/hr-sync`, admin, {
        fieldMapping: { a: 'learner.firstName' },
      });
      expect(noIdentity.status).toBe(f.invalid);
      const unknownField = await s.call('PUT', `${f.prefix}/hr-sync`, admin, { colour: 'blue' });
      expect(unknownField.status).toBe(f.invalid);
      expect(errorFields(unknownField.body)).toEqual(['colour']);
      for (const url of [
        'https://10.1.2.3/hr',
        'https://192.168.4.5/hr',
        'https://169.254.169.254/latest',
        'ftp://hr.example.com/x',
      ]) {
        const ssrf = await s.call('PUT', `${f.prefix}/hr-sync`, admin, { outboundUrl: url });
        expect(ssrf.status, url).toBe(f.invalid);
        expect(errorFields(ssrf.body)).toEqual(['outboundUrl']);
      }
      expect((await s.call('GET', `${f.prefix}/hr-sync`, admin)).body.outboundUrl).toBeNull();

      const manager = (await s.key('hr-conf', 'manager', ['hr:read'])).key;
      const integration = (await s.key('hr-conf', 'integration', ['hr:read', 'hr:write'])).key;
      expect((await s.call('GET', `${f.prefix}/hr-sync`, manager)).status).toBe(403);
      expect((await s.call('PUT', `${f.prefix}/hr-sync`, integration, { enabled: false })).status).toBe(403);
      expect((await s.call('POST', `${f.prefix}/hr-sync/rotate-key`, integration)).status).toBe(403);
      // Back to the specification's mapping for the next form.
      const reset = await s.call('PUT', `${f.prefix}/hr-sync`, admin, { fieldMapping: got.body.fieldMapping });
      expect(reset.status).toBe(200);
    });
  }

  it('rotate-key shows the key once; only its hash is stored; changes are audited', async () => {
    const r = await s.call('POST', '/api/v1/hr-sync/rotate-key', admin);
    expect(r.status).toBe(200);
    expect(r.body.key).toMatch(/^hrk_[A-Za-z0-9_-]{32}$/);
    expect(r.body.keyPrefix).toBe(r.body.key.slice(0, 8));
    expect((await s.call('GET', '/api/v1/hr-sync', admin)).body).not.toHaveProperty('key');
    if (s.storage.db) {
      const rows = await s.storage.db.all<Record<string, unknown>>('SELECT * FROM hr_sync_configs');
      expect(JSON.stringify(rows)).not.toContain(r.body.key);
      const audit = await s.storage.db.all<{ action: string }>(
        `SELECT action FROM audit_log WHERE action LIKE 'hr_sync.%' ORDER BY at`,
      );
      expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(['hr_sync.configured', 'hr_sync.key_rotated']));
    }
    const secret = await s.call('POST', '/api/v1/hr-sync/rotate-signing-secret', admin);
    expect(secret.status).toBe(409);
  });
});
