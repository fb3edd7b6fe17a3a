import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '@fundi/server/testing';
import { createFundiClient, type Schema } from './index.js';

describe('typed client against a running server', () => {
  let s: TestServer;
  let key: string;
  beforeAll(async () => {
    s = await startTestServer('sqlite');
    key = (await s.tenant('client-co')).key;
  });
  afterAll(() => s?.close());

  it('creates, reads and lists learners in both forms with typed bodies and answers', async () => {
    const fundi = createFundiClient({ baseUrl: s.url, apiKey: key });
    const created = await fundi.POST('/api/v1/learners', {
      body: { firstName: 'Thandi', lastName: 'Nkosi', idNumber: '9001049818080', mobile: '0821234567' },
    });
    expect(created.response.status).toBe(201);
    const learner: Schema<'Learner'> = created.data!;
    expect(learner.mobile).toBe('+27821234567');
    const got = await fundi.GET('/api/v1/learners/{id}', { params: { path: { id: learner.id } } });
    expect(got.data?.idNumber).toBe('9001049818080');
    const page = await fundi.GET('/api/v1/tenants/{slug}/learners', {
      params: { path: { slug: 'client-co' }, query: { limit: 10 } },
    });
    expect(page.data?.pagination.total).toBe(1);
    const me = await fundi.GET('/api/v1/me');
    expect(me.data?.tenant.slug).toBe('client-co');
  });

  it('pages the notification templates like any list: cursor in Form A, offset in Form B', async () => {
    const fundi = createFundiClient({ baseUrl: s.url, apiKey: key });
    const whole = await fundi.GET('/api/v1/notification-templates', { params: { query: { limit: 100 } } });
    const all: Schema<'NotificationTemplateSummary'>[] = whole.data!.data;
    expect(whole.data?.pagination).toEqual({ hasMore: false, nextCursor: null, total: all.length });
    const first = await fundi.GET('/api/v1/notification-templates', { params: { query: { limit: 10 } } });
    expect(first.data?.pagination.hasMore).toBe(true);
    const cursor = first.data?.pagination.nextCursor ?? undefined;
    const second = await fundi.GET('/api/v1/notification-templates', { params: { query: { limit: 10, cursor } } });
    expect([...first.data!.data, ...second.data!.data].map((t) => t.key)).toEqual(all.map((t) => t.key));
    const b = await fundi.GET('/api/v1/tenants/{slug}/notification-templates', {
      params: { path: { slug: 'client-co' }, query: { limit: 10, offset: 10 } },
    });
    expect(b.data?.pagination).toEqual({ total: all.length, limit: 10, offset: 10, hasMore: false });
    expect(b.data?.data).toEqual(second.data?.data);
  });

  it("gives errors in the form's envelope, typed", async () => {
    const fundi = createFundiClient({ baseUrl: s.url, apiKey: key });
    const bad = await fundi.POST('/api/v1/learners', { body: { firstName: 'X', lastName: 'Y', idNumber: '123' } });
    expect(bad.response.status).toBe(422);
    expect(bad.error?.error.code).toBe('validation_error');
    const anonymous = createFundiClient({ baseUrl: s.url, apiKey: 'fnd_live_wrong' });
    expect((await anonymous.GET('/api/v1/learners')).response.status).toBe(401);
  });
});
