import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '@fundi/server/testing';

describe('smoke: a learner through both forms on SQLite', () => {
  let s: TestServer;
  let key: string;
  beforeAll(async () => {
    s = await startTestServer('sqlite');
    key = (await s.tenant('acme')).key;
  });
  afterAll(async () => s.close());

  it('creates in Form A and reads in Form B', async () => {
    const created = await s.call('POST', '/api/v1/learners', key, {
      firstName: 'Thandi',
      lastName: 'Nkosi',
      idNumber: '9001049818080',
    });
    expect(created.status).toBe(201);
    const got = await s.call('GET', `/v1/tenants/acme/learners/${created.body.id}`, key);
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({
      idNumber: '9001049818080',
      gender: 'M',
      dateOfBirth: '1990-01-04',
      citizenship: 'citizen',
    });
  });
});
