import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { luhnValid } from '@fundi/domain/learners';
import { startTestServer, type ResponseBody, type TestServer } from '@fundi/server/testing';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** Every learner operation, its success status and the route-specific error statuses it must list. */
const OPERATIONS = [
  { path: '/learners', method: 'get', success: '200', errors: [] },
  { path: '/learners', method: 'post', success: '201', errors: ['408', '409', '413'] },
  { path: '/learners/{id}', method: 'get', success: '200', errors: ['404'] },
  { path: '/learners/{id}', method: 'patch', success: '200', errors: ['404', '408', '409', '413'] },
  { path: '/learners/{id}', method: 'delete', success: '204', errors: ['404'] },
] as const;

const MOUNTS = [
  { prefix: '/api/v1', error: 'ErrorA', invalid: '422', pagination: 'CursorPagination' },
  { prefix: '/api/v1/tenants/{slug}', error: 'ErrorB', invalid: '400', pagination: 'OffsetPagination' },
];

describe('OpenAPI document', () => {
  let s: TestServer;
  let doc: ResponseBody;
  beforeAll(async () => {
    s = await startTestServer('memory');
    const r = await s.call('GET', '/v1/openapi.json');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/application\/json/);
    doc = r.body;
  });
  afterAll(async () => s?.close());

  it('is served at both addresses without a key, as one document', async () => {
    const other = await s.call('GET', '/api/v1/openapi.json');
    expect(other.status).toBe(200);
    expect(other.body).toEqual(doc);
    const withBadKey = await s.call('GET', '/api/v1/openapi.json', 'fnd_live_wrong');
    expect(withBadKey.status).toBe(200);
  });

  it('is OpenAPI 3.1 with both error envelopes and both paginations', () => {
    expect(doc.openapi).toMatch(/^3\.1\./);
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    const { ErrorA, ErrorB, CursorPagination, OffsetPagination } = doc.components.schemas;
    expect(ErrorA.properties.error.properties.details.type).toBe('array');
    expect(Object.keys(ErrorA.properties.error.properties.details.items.properties).sort()).toEqual([
      'field',
      'message',
    ]);
    expect(ErrorB.properties.error.properties.details.type).toBe('object');
    expect(Object.keys(ErrorB.properties.error.properties.details.properties).sort()).toEqual(['field', 'reason']);
    expect(Object.keys(CursorPagination.properties).sort()).toEqual(['hasMore', 'nextCursor', 'total']);
    expect(Object.keys(OffsetPagination.properties).sort()).toEqual(['hasMore', 'limit', 'offset', 'total']);
  });

  it.each(
    MOUNTS.flatMap((m) => OPERATIONS.map((o) => [`${o.method.toUpperCase()} ${m.prefix}${o.path}`, m, o] as const)),
  )("%s: every status, the form's envelopes", (_n, m, o) => {
    const op = doc.paths[`${m.prefix}${o.path}`]?.[o.method];
    expect(op, 'operation present').toBeTruthy();
    expect(op.operationId).toBeTruthy();
    const statuses = Object.keys(op.responses).sort();
    expect(statuses).toEqual(
      [o.success, '401', '403', '405', '429', '431', '500', '503', m.invalid, ...o.errors].sort(),
    );
    // Answers given before the operation runs are the form's shared components.
    const form = m.error.slice(-1);
    expect(op.responses['405']).toEqual({ $ref: `#/components/responses/MethodNotAllowed${form}` });
    expect(op.responses['431']).toEqual({ $ref: `#/components/responses/HeadersTooLarge${form}` });
    const answer = (code: string) =>
      op.responses[code].$ref ? doc.components.responses[op.responses[code].$ref.split('/').pop()] : op.responses[code];
    // The two statuses that ask the client to come back later say when.
    for (const later of ['429', '503']) expect(answer(later).headers, later).toHaveProperty('Retry-After');
    for (const code of statuses.filter((c) => c >= '400')) {
      expect(answer(code).content['application/json'].schema.$ref, code).toBe(`#/components/schemas/${m.error}`);
    }
    expect(answer('405').headers.Allow).toMatchObject({ required: true });
    for (const code of statuses.filter((c) => c !== '431'))
      expect(answer(code).headers, code).toHaveProperty('X-RateLimit-Reset');
    if (m.prefix.includes('{slug}'))
      expect(
        op.parameters.some(
          (p: { in: string; name: string; required?: boolean }) => p.in === 'path' && p.name === 'slug' && p.required,
        ),
      ).toBe(true);
    if (o.method === 'get' && o.path === '/learners') {
      const params = op.parameters.map((p: { name: string }) => p.name).sort();
      expect(params).toEqual(
        expect.arrayContaining([
          'limit',
          'search',
          'employeeRef',
          'createdFrom',
          'createdTo',
          m.error === 'ErrorA' ? 'cursor' : 'offset',
        ]),
      );
      expect(op.responses['200'].content['application/json'].schema.properties.pagination.$ref).toBe(
        `#/components/schemas/${m.pagination}`,
      );
    }
    if (o.method === 'post')
      expect(op.requestBody.content['application/json'].schema.$ref).toBe('#/components/schemas/LearnerCreate');
  });

  it('the learner schemas name the alias, the derived fields and the NLRD codes', () => {
    const { LearnerCreate, Learner } = doc.components.schemas;
    expect(LearnerCreate.required.sort()).toEqual(['firstName', 'lastName']);
    expect(LearnerCreate.properties).toHaveProperty('saIdNumber');
    expect(LearnerCreate.additionalProperties).toBe(false);
    expect(Learner.required).toEqual(
      expect.arrayContaining(['id', 'idNumber', 'dateOfBirth', 'gender', 'citizenship']),
    );
    expect(JSON.stringify(LearnerCreate.properties.provinceCode)).toContain('"N"');
  });

  it('the webhooks section gives every event its envelope and the data its producer writes', () => {
    const data = (type: string) =>
      doc.webhooks[type].post.requestBody.content['application/json'].schema.properties.data;
    const {
      Learner,
      ErasedLearnerData,
      LearnerUpdatedData,
      EnrolmentStatusChangedData,
      AssessmentEventData,
      ModerationCompletedData,
    } = doc.components.schemas;
    expect(Object.keys(doc.webhooks).sort()).toEqual([
      'assessment.completed',
      'assessment.recorded',
      'enrolment.status_changed',
      'evidence.reviewed',
      'evidence.uploaded',
      'export.completed',
      'export.ready',
      'hr.learner.competency',
      'hr.learner.completed',
      'import.completed',
      'learner.created',
      'learner.updated',
      'logbook.queried',
      'logbook.signed',
      'logbook.submitted',
      'moderation.completed',
      'moderation.sample_drawn',
      'ping',
      'statement.issued',
      'statement.revoked',
    ]);
    expect(data('learner.created').anyOf.map((x: { $ref: string }) => x.$ref)).toEqual([
      '#/components/schemas/LearnerCreatedData',
      '#/components/schemas/ErasedLearnerData',
    ]);
    expect(Learner.required).toContain('idNumber');
    expect(ErasedLearnerData.required.sort()).toEqual(['erased', 'id']);
    expect(data('learner.updated').anyOf[0].$ref).toBe('#/components/schemas/LearnerUpdatedData');
    expect(LearnerUpdatedData.properties.changes.properties).toHaveProperty('mobile');
    expect(LearnerUpdatedData.properties.changes.properties).not.toHaveProperty('createdAt');
    expect(data('assessment.recorded').$ref).toBe('#/components/schemas/AssessmentEventData');
    expect(data('assessment.completed').$ref).toBe('#/components/schemas/AssessmentEventData');
    expect(AssessmentEventData.required.sort()).toEqual([
      'assessmentDate',
      'assessmentId',
      'assessmentType',
      'enrolmentId',
      'learnerId',
      'moduleCode',
      'outcome',
    ]);
    expect(EnrolmentStatusChangedData.required.sort()).toEqual([
      'effectiveDate',
      'enrolmentId',
      'from',
      'learnerId',
      'programmeCode',
      'reason',
      'to',
    ]);
    expect(ModerationCompletedData.required.sort()).toEqual([
      'assessmentId',
      'decision',
      'effectiveOutcome',
      'enrolmentId',
      'learnerId',
      'moderatedBy',
      'moderatorEmail',
      'moduleCode',
      'notes',
    ]);
    for (const type of ['export.ready', 'export.completed'])
      expect(doc.webhooks[type].post.description).not.toMatch(/not emitted yet/);
    expect(doc.components.schemas.ExportReadyData.required.sort()).toEqual([
      'downloadUrl',
      'expiresAt',
      'exportId',
      'fileName',
      'format',
      'rowCount',
      'size',
      'type',
    ]);
    const envelope = doc.webhooks['moderation.completed'].post.requestBody.content['application/json'].schema;
    expect(envelope.required.sort()).toEqual(['data', 'id', 'tenantId', 'timestamp', 'type']);
  });

  it('every multipart body requires its binary file part and takes the text fields in any order', () => {
    type Operation = { requestBody?: { content?: Record<string, { schema: MultipartSchema }> } };
    type MultipartSchema = { required: string[]; properties: { file: { description: string } } };
    const paths = doc.paths as Record<string, Record<string, Operation>>;
    const multipart = Object.entries(paths).flatMap(([path, item]) =>
      Object.entries(item).flatMap(([method, op]) => {
        const media = op.requestBody?.content?.['multipart/form-data'];
        return media ? [[`${method} ${path}`, media.schema] as const] : [];
      }),
    );
    expect(multipart.map(([name]) => name)).toEqual(
      expect.arrayContaining(['post /api/v1/evidence', 'post /api/v1/tenants/{slug}/imports']),
    );
    for (const [name, schema] of multipart) {
      expect(schema.required, name).toContain('file');
      expect(schema.properties.file, name).toMatchObject({ type: 'string', format: 'binary' });
      expect(schema.properties.file.description, name).toContain('in any order');
    }
  });

  it('every SA ID number among its examples is a valid one (an integrator copies them)', () => {
    const found: string[] = [];
    const walk = (v: unknown): void => {
      if (typeof v === 'string' && /^\d{13}$/.test(v)) found.push(v);
      else if (v && typeof v === 'object') for (const x of Object.values(v)) walk(x);
    };
    walk(doc);
    expect(found.length).toBeGreaterThan(0);
    for (const id of found) expect(luhnValid(id), id).toBe(true);
  });

  it('the documented 413 is what an oversized body gets', async () => {
    const key = (await s.tenant('big')).key;
    const big = JSON.stringify({ firstName: 'x'.repeat(1024 * 1024 + 10) });
    const a = await s.call('POST', '/api/v1/learners', key, big);
    expect(a.status).toBe(413);
    expect(a.body.error.code).toBe('payload_too_large');
    const b = await s.call('PATCH', '/v1/tenants/big/learners/lrn_x', key, big);
    expect(b.status).toBe(413);
    expect(b.body.error.code).toBe('FILE_TOO_LARGE');
  });

  it('passes `redocly lint` with no errors or warnings', () => {
    const dir = mkdtempSync(join(tmpdir(), 'fundi-openapi-'));
    try {
      const file = join(dir, 'openapi.json');
      writeFileSync(file, JSON.stringify(doc));
      const r = spawnSync(
        join(ROOT, 'node_modules/.bin/redocly'),
        ['lint', file, '--config', join(ROOT, 'redocly.yaml'), '--format', 'stylish'],
        { cwd: ROOT, encoding: 'utf8' },
      );
      const out = `${r.stdout}\n${r.stderr}`;
      expect(r.status, out).toBe(0);
      expect(out).toMatch(/valid/i);
      expect(out).not.toMatch(/\d+ (errors?|warnings?)\b/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
