import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { LEARNER_HEADER, idNumberFor, learnerLine, settled, upload } from '../testing/import-fixtures.js';
import { programmeBody } from '../testing/training-fixtures.js';
import { A, B, V1, filesUnder, describeImportSuite } from './imports-http-fixture.js';

/**
 * An import's stored file, who may see it, and what it reports (errors, the list, templates). The reports test
 * runs last: the list it checks holds the imports the tests before it made.
 */
describeImportSuite('imports over HTTP: the stored file, access and reports', (world) => {
  it('keeps the uploaded file encrypted: none of its text reaches the file store', async () => {
    const { s, admin } = world();
    const marker = 'PLAINTEXT-MARKER-4471';
    const r = await upload(s, admin, A, 'learners', `${LEARNER_HEADER}\n${marker},X,${idNumberFor(900)},,\n`);
    await settled(s, admin, A, r.body.id, ['validated']);
    const stored = filesUnder(s.filesDir!).filter((f) => f.includes(r.body.id));
    expect(stored).toHaveLength(1);
    expect(readFileSync(stored[0]!).includes(marker)).toBe(false);
  });

  it('another tenant sees none of it; a read-only key cannot upload', async () => {
    const { s, admin } = world();
    const other = (await s.tenant('imp-other')).key;
    const mine = await upload(s, admin, A, 'learners', `${LEARNER_HEADER}\n${learnerLine(800)}\n`);
    expect((await s.call('GET', `${A}/imports/${mine.body.id}`, other)).status).toBe(404);
    expect((await s.call('POST', `${A}/imports/${mine.body.id}/confirm`, other)).status).toBe(404);
    const viewer = (await s.key('imp', 'viewer', ['learners:read'])).key;
    expect((await upload(s, viewer, A, 'learners', `${LEARNER_HEADER}\n`)).status).toBe(403);
  });

  it('each template, uploaded as it is after the ones before it, validates: the example rows fit together', async () => {
    const { s, admin } = world();
    const programme = await s.call('POST', `${A}/programmes`, admin, programmeBody('OC-PLUMB-4'));
    expect(programme.status).toBe(201);
    for (const type of ['learners', 'enrolments', 'assessments', 'evidence']) {
      const t = await s.call('GET', `${A}/imports/templates/${type}`, admin);
      expect(t.status).toBe(200);
      const r = await upload(s, admin, A, type, t.body as string);
      const done = await settled(s, admin, A, r.body.id, ['validated', 'failed']);
      expect(done.errors, type).toEqual([]);
      expect(done).toMatchObject({ status: 'validated', totalRows: 1, validRows: 1 });
      expect((await s.call('POST', `${A}/imports/${r.body.id}/confirm`, admin)).status).toBe(202);
      expect(await settled(s, admin, A, r.body.id, ['completed', 'failed'])).toMatchObject({ importedRows: 1 });
    }
  });

  it('errors are paged, listed as CSV, imports are listed, and templates have a header and an example', async () => {
    const { s, admin } = world();
    const lines = [LEARNER_HEADER];
    for (let i = 0; i < 30; i++) lines.push(learnerLine(700 + i, { email: `=cmd|${i}` }));
    const r = await upload(s, admin, A, 'learners', lines.join('\n'));
    await settled(s, admin, A, r.body.id, ['validated']);
    const page = await s.call('GET', `${B}/imports/${r.body.id}?errorsLimit=10&errorsOffset=25`, admin);
    expect(page.body.errors.map((e: { row: number }) => e.row)).toEqual([27, 28, 29, 30, 31]);
    expect(page.body.errorsPage).toEqual({ offset: 25, limit: 10, total: 30, hasMore: false, nextCursor: null });
    expect((await s.call('GET', `${A}/imports/${r.body.id}?errorsLimit=1001`, admin)).status).toBe(422);
    const csv = await s.call('GET', `${V1}/imports/${r.body.id}/errors.csv`, admin);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const rows = (csv.body as string).trim().split('\r\n');
    expect(rows[0]).toBe('row,field,error,value,learner,id_number');
    expect(rows).toHaveLength(31);
    expect(rows[1]).toMatch(/^2,email,/);
    const list = await s.call('GET', `${B}/imports?type=learners&limit=2`, admin);
    expect(list.status).toBe(200);
    expect(list.body.pagination.total).toBeGreaterThan(2);
    for (const type of ['learners', 'enrolments', 'assessments']) {
      const t = await s.call('GET', `${A}/imports/templates/${type}`, admin);
      expect(t.status).toBe(200);
      const [header, example, rest] = (t.body as string).split('\r\n');
      expect(rest).toBe('');
      expect(header!.split(',').length).toBe(example!.split(',').length);
      if (type === 'learners') expect(header).toContain('home_language_code');
    }
    expect((await s.call('GET', `${A}/imports/templates/badgers`, admin)).status).toBe(404);
  });
});
