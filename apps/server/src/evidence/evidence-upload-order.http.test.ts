import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachStorage } from '@fundi/adapters/testing';
import { FixedClock } from '@fundi/testing';
import type { TestServer } from '../testing/test-server.js';
import { expectSameRefusalInEitherOrder, fieldParts, multipartInOrder, type Part } from '../testing/multipart-parts.js';
import { filesUnder, PDF, startEvidenceServer } from './evidence-http-fixture.js';

const FORMS = [
  ['Form A', '/api/v1'],
  ['Form B', '/api/v1/tenants/evi'],
  ['Form B (/v1)', '/v1/tenants/evi'],
] as const;

const FILE: Part = { name: 'file', filename: 'order.pdf', type: 'application/pdf', data: PDF };

/** Evidence multipart uploads take their parts in any order: the file may come before the text fields. */
describeEachStorage(
  'evidence over HTTP: multipart parts in any order',
  (_get, kind) => {
    let s: TestServer;
    let admin: string;
    let learnerId: string;
    const clock = new FixedClock(new Date());

    beforeAll(async () => {
      ({ s, admin, learnerId } = await startEvidenceServer(kind, clock));
    });
    afterAll(() => s?.close());

    const send = (prefix: string, parts: Part[]) => {
      const m = multipartInOrder(parts);
      return s.call('POST', `${prefix}/evidence`, admin, m.body, { 'content-type': m.type });
    };
    /** What an upload may change: records, events, stored files and the tenant's storage use. */
    const state = async () => ({
      records: (await s.call('GET', '/api/v1/evidence?limit=1', admin)).body.pagination.total,
      events: (await s.storage.db?.all(`SELECT id FROM outbox_events`))?.length ?? null,
      files: s.filesDir ? filesUnder(s.filesDir).length : null,
      usage: (({ bytesUsed, files }) => ({ bytesUsed, files }))((await s.call('GET', '/api/v1/usage', admin)).body),
    });
    const shown = (body: Record<string, unknown>) => {
      const { id: _id, createdAt: _c, updatedAt: _u, uploadedAt: _up, ...rest } = body;
      return rest;
    };

    it('fields first, then the file: stored', async () => {
      for (const [form, prefix] of FORMS) {
        const fields = { learnerId, moduleId: 'KM-01', evidenceType: 'portfolio' };
        const r = await send(prefix, [...fieldParts(fields), FILE]);
        expect(r.status, form).toBe(201);
        expect(r.body, form).toMatchObject({ ...fields, filename: 'order.pdf', size: PDF.length, version: 1 });
      }
    });

    it('the file first, then the fields: the same evidence as with the fields first', async () => {
      for (const [form, prefix] of FORMS) {
        const fields = { learnerId, moduleId: 'PM-01', evidenceType: 'assignment', filename: 'named-late.pdf' };
        const first = await send(prefix, [...fieldParts(fields), FILE]);
        const last = await send(prefix, [FILE, ...fieldParts(fields)]);
        expect(last.status, form).toBe(201);
        expect(shown(last.body), form).toEqual(shown(first.body));
        expect(last.body, form).toMatchObject({ ...fields, contentType: 'application/pdf', status: 'submitted' });
        expect(last.headers.get('location'), form).toBe(`${prefix}/evidence/${last.body.id}`);
        const got = await s.call('GET', `/api/v1/evidence/${last.body.id}`, admin);
        expect(got.body.filename, form).toBe('named-late.pdf');
      }
    });

    it('the file first, then bad or missing fields: the same error as with the fields first, and nothing kept', async () => {
      const cases: [string, Record<string, string>][] = [
        ['missing moduleId', { learnerId, evidenceType: 'portfolio' }],
        ['bad evidenceType', { learnerId, moduleId: 'KM-01', evidenceType: 'scroll' }],
        ['unknown learner', { learnerId: 'lrn_nobody', moduleId: 'KM-01', evidenceType: 'other' }],
        ['module outside the enrolments', { learnerId, moduleId: 'NOPE', evidenceType: 'other' }],
        ['unknown field', { learnerId, moduleId: 'KM-01', evidenceType: 'other', colour: 'red' }],
      ];
      await expectSameRefusalInEitherOrder({ forms: FORMS, send, state, file: () => FILE }, cases);
    });

    it('a field sent both before and after the file is invalid input naming it, and nothing is kept', async () => {
      const before = await state();
      const r = await send('/api/v1', [
        { name: 'learnerId', value: learnerId },
        { name: 'moduleId', value: 'KM-01' },
        FILE,
        { name: 'evidenceType', value: 'other' },
        { name: 'moduleId', value: 'PM-01' },
      ]);
      expect(r.status).toBe(422);
      expect(r.body.error.details).toEqual([{ field: 'moduleId', message: 'is given more than once' }]);
      expect(await state()).toEqual(before);
    });
  },
  ['sqlite', 'postgres'],
);
