import { Writable } from 'node:stream';
import { reposOf } from '../capabilities/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { T, createLogger, resolve } from '@fundi/adapters';
import { aLearnerInput } from '@fundi/domain/testing';
import { startTestServer, type TestServer } from '@fundi/server/testing';

describe('system endpoints, request ids and logs', () => {
  let s: TestServer;
  const lines: string[] = [];
  beforeAll(async () => {
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(...String(chunk).split('\n').filter(Boolean));
        done();
      },
    });
    s = await startTestServer('sqlite', { logger: createLogger('info', sink) });
  });
  afterAll(async () => s?.close());

  it('GET /health and GET /ready answer 200 without a key', async () => {
    await expect(s.call('GET', '/health')).resolves.toMatchObject({ status: 200, body: { status: 'ok' } });
    await expect(s.call('GET', '/ready')).resolves.toMatchObject({ status: 200, body: { status: 'ready' } });
  });

  it('echoes a given X-Request-Id and generates one otherwise', async () => {
    const given = await s.call('GET', '/health', undefined, undefined, { 'x-request-id': 'req-abc.123' });
    expect(given.headers.get('x-request-id')).toBe('req-abc.123');
    const generated = await s.call('GET', '/api/v1/learners');
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const unsafe = await s.call('GET', '/health', undefined, undefined, { 'x-request-id': 'bad id with spaces' });
    expect(unsafe.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('request logs carry the request id but no ID numbers or emails', async () => {
    const key = (await s.tenant('logs')).key;
    const input = aLearnerInput({ email: 'secret.person@example.co.za', mobile: '0821234567' });
    const made = await s.call('POST', '/api/v1/learners', key, input, { 'x-request-id': 'log-check-1' });
    expect(made.status).toBe(201);
    await s.call('GET', `/api/v1/learners?search=${input.idNumber}`, key);
    await s.call('GET', `/api/v1/learners?search=${encodeURIComponent('secret.person@example.co.za')}`, key);
    await s.call('PATCH', `/v1/tenants/logs/learners/${made.body.id}`, key, {
      email: 'not-an-email',
      idNumber: '9001049881080',
    });
    await s.call('POST', '/api/v1/learners', key, { ...input, firstName: undefined });
    const text = lines.join('\n');
    expect(lines.some((l) => JSON.parse(l).requestId === 'log-check-1')).toBe(true);
    expect(lines.filter((l) => JSON.parse(l).msg === 'request').length).toBeGreaterThanOrEqual(5);
    for (const secret of [input.idNumber as string, 'secret.person', '9001049881080', '821234567', key])
      expect(text).not.toContain(secret);
  });

  it('an unexpected error is a 500 that leaks nothing and is logged with the request id', async () => {
    const key = (await s.tenant('boom')).key;
    const repos = reposOf(s.container);
    const original = repos.learners.list.bind(repos.learners);
    repos.learners.list = async () => {
      throw new Error('db exploded: SELECT secret');
    };
    try {
      const a = await s.call('GET', '/api/v1/learners', key, undefined, { 'x-request-id': 'boom-1' });
      expect(a.status).toBe(500);
      expect(a.body).toEqual({ error: { code: 'internal_error', message: 'Internal error', details: [] } });
      const b = await s.call('GET', '/v1/tenants/boom/learners', key);
      expect(b.status).toBe(500);
      expect(b.body.error.code).toBe('SERVER_ERROR');
      expect(JSON.stringify(b.body)).not.toContain('exploded');
      expect(lines.some((l) => JSON.parse(l).requestId === 'boom-1' && JSON.parse(l).level === 50)).toBe(true);
    } finally {
      repos.learners.list = original;
    }
  });

  it("an unknown API route is 404 in the form's envelope", async () => {
    const key = (await s.tenant('routes')).key;
    const a = await s.call('GET', '/api/v1/nothing', key);
    expect(a.status).toBe(404);
    expect(a.body.error).toMatchObject({ code: 'not_found', details: [] });
    const b = await s.call('GET', '/v1/tenants/routes/nothing', key);
    expect(b.status).toBe(404);
    expect(b.body.error).toMatchObject({ code: 'NOT_FOUND', details: {} });
  });

  it('GET /ready is 503 once the database is closed', async () => {
    const other = await startTestServer('sqlite');
    try {
      await resolve(other.container, T.SqlDb).close();
      const r = await other.call('GET', '/ready');
      expect(r.status).toBe(503);
      expect(r.body.status).toBe('unavailable');
      expect((await other.call('GET', '/health')).status).toBe(200);
    } finally {
      await other.close();
    }
  });
});
