import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachStorage } from '@fundi/adapters/testing';
import type { TestServer } from '../testing/test-server.js';
import { LEARNER_HEADER, learnerLine, settled } from '../testing/import-fixtures.js';
import { expectSameRefusalInEitherOrder, fieldParts, multipartInOrder, type Part } from '../testing/multipart-parts.js';
import { A, B, V1, filesUnder, startImportServer } from './imports-http-fixture.js';

const FORMS = [
  ['Form A', A],
  ['Form B', B],
  ['Form B (/v1)', V1],
] as const;

let rows = 700;
/** A learners CSV of two fresh rows. */
const csv = (): Part => ({
  name: 'file',
  filename: 'learners.csv',
  type: 'text/csv',
  data: Buffer.from(`${LEARNER_HEADER}\n${learnerLine(++rows)}\n${learnerLine(++rows)}\n`),
});

/** CSV import uploads take their parts in any order: the file may come before `type` and `options`. */
describeEachStorage(
  'imports over HTTP: multipart parts in any order',
  (_get, kind) => {
    let s: TestServer;
    let admin: string;

    beforeAll(async () => {
      ({ s, admin } = await startImportServer(kind));
    });
    afterAll(() => s?.close());

    const send = (prefix: string, parts: Part[]) => {
      const m = multipartInOrder(parts);
      return s.call('POST', `${prefix}/imports`, admin, m.body, { 'content-type': m.type });
    };
    /** What an upload may change: import records, audit entries, stored files and the tenant's storage use. */
    const state = async () => ({
      imports: (await s.call('GET', `${A}/imports?limit=1`, admin)).body.pagination.total,
      audit: (await s.storage.db?.all(`SELECT id FROM audit_log`))?.length ?? null,
      files: s.filesDir ? filesUnder(s.filesDir).length : null,
      usage: (({ bytesUsed, files }) => ({ bytesUsed, files }))((await s.call('GET', `${A}/usage`, admin)).body),
    });

    it('fields first, then the file: accepted', async () => {
      for (const [form, prefix] of FORMS) {
        const r = await send(prefix, [...fieldParts({ type: 'learners', options: '{"dryRun":true}' }), csv()]);
        expect(r.status, form).toBe(202);
        expect(r.body, form).toMatchObject({ type: 'learners', status: 'validating', dryRun: true, totalRows: 2 });
      }
    });

    it('the file first, then type and options: the same import as with the fields first, options honoured', async () => {
      for (const [form, prefix] of FORMS) {
        const dry = await send(prefix, [csv(), ...fieldParts({ type: 'learners', options: '{"dryRun":true}' })]);
        expect(dry.status, form).toBe(202);
        expect(dry.body, form).toMatchObject({
          type: 'learners',
          status: 'validating',
          dryRun: true,
          fileName: 'learners.csv',
          totalRows: 2,
        });
        expect((await settled(s, admin, A, dry.body.id, ['validated', 'failed'])).status, form).toBe('validated');
        // `options` alone after the file still counts: no dry run, the rows are written.
        const real = await send(prefix, [
          { name: 'type', value: 'learners' },
          csv(),
          { name: 'options', value: '{"dryRun":false}' },
        ]);
        expect(real.status, form).toBe(202);
        expect(real.body.dryRun, form).toBe(false);
        const done = await settled(s, admin, A, real.body.id, ['completed', 'failed']);
        expect(done, form).toMatchObject({ status: 'completed', importedRows: 2 });
      }
    });

    it('the file first, then bad or missing fields: the same error as with the fields first, and nothing kept', async () => {
      const cases: [string, Record<string, string>][] = [
        ['unknown type', { type: 'badgers' }],
        ['bad options', { type: 'learners', options: '{"dryRun":"yes"}' }],
        ['options not JSON', { type: 'learners', options: 'dry' }],
        ['missing type', { options: '{"dryRun":true}' }],
        ['unknown field', { type: 'learners', colour: 'red' }],
      ];
      await expectSameRefusalInEitherOrder({ forms: FORMS, send, state, file: csv }, cases);
    });

    it('a field sent both before and after the file is invalid input naming it, and nothing is kept', async () => {
      const before = await state();
      const r = await send(B, [{ name: 'type', value: 'learners' }, csv(), { name: 'type', value: 'enrolments' }]);
      expect(r.status).toBe(400);
      expect(r.body.error.details).toEqual({ field: 'type', reason: 'is given more than once' });
      expect(await state()).toEqual(before);
    });
  },
  ['sqlite', 'postgres'],
);
