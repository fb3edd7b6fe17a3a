import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '@fundi/server/testing';
import { createFundiClient, fundiBodySerializer, type Schema } from './index.js';

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

  it('uploads a File as multipart with typed fields, in both forms, and types a file part as a Blob', async () => {
    const fundi = createFundiClient({ baseUrl: s.url, apiKey: key });
    const programme = await fundi.POST('/api/v1/programmes', {
      body: {
        code: 'P-CLIENT',
        name: 'Client programme',
        type: 'skills_programme',
        modules: [{ code: 'KM-01', name: 'Knowledge', kind: 'knowledge' }],
      },
    });
    expect(programme.response.status).toBe(201);
    const learner = await fundi.POST('/api/v1/learners', {
      body: { firstName: 'Sipho', lastName: 'Dlamini', idNumber: '8501015800088' },
    });
    const enrolment = await fundi.POST('/api/v1/enrolments', {
      body: { learnerId: learner.data!.id, programmeCode: 'P-CLIENT', startDate: '2026-01-10' },
    });
    expect(enrolment.response.status).toBe(201);
    const pdf = new File([`%PDF-1.7\n${'portfolio page\n'.repeat(50)}%%EOF\n`], 'Portfolio é.pdf', {
      type: 'application/pdf',
    });
    const a = await fundi.POST('/api/v1/evidence', {
      body: { learnerId: learner.data!.id, moduleId: 'KM-01', evidenceType: 'portfolio', file: pdf },
    });
    expect(a.response.status, JSON.stringify(a.error)).toBe(201);
    const evidence: Schema<'Evidence'> = a.data!;
    expect(evidence).toMatchObject({ filename: 'Portfolio é.pdf', contentType: 'application/pdf', size: pdf.size });
    expect(a.response.headers.get('location')).toBe(`/api/v1/evidence/${evidence.id}`);
    // A plain Blob has no name: the text field gives it. Form B, the same serializer.
    const b = await fundi.POST('/api/v1/tenants/{slug}/evidence', {
      params: { path: { slug: 'client-co' } },
      body: {
        learnerId: learner.data!.id,
        moduleId: 'KM-01',
        evidenceType: 'logbook',
        filename: 'logbook.pdf',
        file: new Blob([await pdf.arrayBuffer()]),
      },
    });
    expect(b.response.status, JSON.stringify(b.error)).toBe(201);
    expect(b.data).toMatchObject({ filename: 'logbook.pdf', contentType: 'application/pdf' });
    const csv = new File(['first_name,last_name,id_number\r\nLerato,Khumalo,9001049818080\r\n'], 'learners.csv');
    const imported = await fundi.POST('/api/v1/imports', {
      body: { type: 'learners', options: JSON.stringify({ dryRun: true }), file: csv },
    });
    expect(imported.response.status, JSON.stringify(imported.error)).toBe(202);
    expect(imported.data).toMatchObject({ type: 'learners', dryRun: true, fileName: 'learners.csv' });
    const refused = await fundi.POST('/api/v1/evidence', {
      body: { learnerId: learner.data!.id, moduleId: 'NOPE', evidenceType: 'portfolio', file: pdf },
    });
    expect(refused.response.status).toBe(422);
    expect(refused.error?.error.details.map((d) => d.field)).toContain('moduleId');
    // The file part is a Blob (or File), never a string; only the compiler runs this.
    const typedAsBlob = () =>
      fundi.POST('/api/v1/evidence', {
        // @ts-expect-error a file part must be a Blob
        body: { learnerId: 'lrn_x', moduleId: 'KM-01', evidenceType: 'portfolio', file: 'not a file' },
      });
    expect(typeof typedAsBlob).toBe('function');
  });

  it('sends JSON, FormData and a bare Blob as they should go', async () => {
    expect(fundiBodySerializer({ a: 1 })).toBe('{"a":1}');
    const given = new FormData();
    expect(fundiBodySerializer(given)).toBe(given);
    const blob = new Blob(['x']);
    expect(fundiBodySerializer(blob)).toBe(blob);
    const form = fundiBodySerializer({ file: blob, options: { dryRun: true }, type: 'learners', skip: undefined });
    expect(form).toBeInstanceOf(FormData);
    expect([...(form as FormData).keys()]).toEqual(['options', 'type', 'file']);
    expect((form as FormData).get('options')).toBe('{"dryRun":true}');
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
