import { expect, it } from 'vitest';
import { LEARNER_HEADER, idNumberFor, learnerLine, settled, upload } from '../testing/import-fixtures.js';
import { A, B, V1, filesUnder, describeImportSuite } from './imports-http-fixture.js';

/** Files and requests an import refuses: whole-file problems, too many rows, too many bytes, bad requests. */
describeImportSuite('imports over HTTP: refused files and requests', (world) => {
  it('whole-file problems fail the import with the line: missing column, mixed encodings, empty, header only, a PDF', async () => {
    const { s, admin } = world();
    const cases: [string, Buffer | string, { row: number; field: string; error: RegExp }][] = [
      [
        'missing column',
        `first_name,id_number\nA,${idNumberFor(400)}\n`,
        { row: 1, field: 'last_name', error: /required column/ },
      ],
      [
        'UTF-8, then Latin-1',
        Buffer.concat([
          Buffer.from(`${LEARNER_HEADER}\nZo\u00eb,Dube,${idNumberFor(401)},z@example.com,\n`),
          Buffer.from(`Ren\u00e9,Dupr\u00e9,${idNumberFor(402)},r@example.com,\n`, 'latin1'),
        ]),
        { row: 3, field: 'file', error: /not UTF-8 text: byte 0xE9 on line 3/ },
      ],
      ['empty', '', { row: 1, field: 'file', error: /is empty/ }],
      ['header only', `${LEARNER_HEADER}\r\n`, { row: 2, field: 'file', error: /no data rows/ }],
      ['a PDF', Buffer.from('%PDF-1.7\n'), { row: 1, field: 'file', error: /not a CSV file \(it looks like a PDF\)/ }],
    ];
    for (const [what, data, error] of cases) {
      const r = await upload(s, admin, A, 'learners', data);
      expect(r.status, what).toBe(202);
      const done = await settled(s, admin, A, r.body.id, ['failed', 'validated']);
      expect(done.status, what).toBe('failed');
      expect(done.errors, what).toContainEqual({
        row: error.row,
        field: error.field,
        error: expect.stringMatching(error.error),
      });
      const c = await s.call('POST', `${A}/imports/${r.body.id}/confirm`, admin);
      expect(c.status, what).toBe(409);
    }
  });

  it('more than 100,000 data rows is refused at upload and nothing is kept', async () => {
    const { s, admin } = world();
    const lines = [LEARNER_HEADER];
    for (let i = 0; i < 100_001; i++) lines.push(learnerLine(500_000 + i));
    const before = (await s.call('GET', `${A}/imports?limit=100`, admin)).body.pagination.total;
    const filesBefore = s.filesDir ? filesUnder(s.filesDir).length : 0;
    for (const [prefix, status] of [
      [A, 422],
      [B, 400],
    ] as const) {
      const r = await upload(s, admin, prefix, 'learners', lines.join('\n'));
      expect(r.status).toBe(status);
      expect(JSON.stringify(r.body.error)).toContain('100000 data rows');
    }
    expect((await s.call('GET', `${A}/imports?limit=100`, admin)).body.pagination.total).toBe(before);
    if (s.filesDir) expect(filesUnder(s.filesDir).length).toBe(filesBefore);
  }, 60_000);

  it('a file over 50 MB is refused with 413 and nothing is kept', async () => {
    const { s, admin } = world();
    const line = `A,B,${idNumberFor(990)},${'x'.repeat(1000)}\n`;
    const big = Buffer.from(`${LEARNER_HEADER}\n${line.repeat(Math.ceil((50 * 1024 * 1024) / line.length) + 10)}`);
    const before = (await s.call('GET', `${A}/imports?limit=100`, admin)).body.pagination.total;
    const filesBefore = s.filesDir ? filesUnder(s.filesDir).length : 0;
    const a = await upload(s, admin, A, 'learners', big);
    expect(a.status).toBe(413);
    expect(a.body.error.code).toBe('payload_too_large');
    const b = await upload(s, admin, V1, 'learners', big);
    expect(b.status).toBe(413);
    expect(b.body.error.code).toBe('FILE_TOO_LARGE');
    expect((await s.call('GET', `${A}/imports?limit=100`, admin)).body.pagination.total).toBe(before);
    if (s.filesDir) expect(filesUnder(s.filesDir).length).toBe(filesBefore);
  }, 60_000);

  it('bad requests: unknown type, bad options, unknown import', async () => {
    const { s, admin } = world();
    const bad = await upload(s, admin, A, 'badgers', 'a\n1\n');
    expect(bad.status).toBe(422);
    const opts = await upload(s, admin, B, 'learners', `${LEARNER_HEADER}\n`, { dryRun: 'yes' });
    expect(opts.status).toBe(400);
    expect(opts.body.error.details.field).toBe('options.dryRun');
    expect((await s.call('GET', `${A}/imports/imp_nope`, admin)).status).toBe(404);
    expect((await s.call('POST', `${B}/imports/imp_nope/confirm`, admin)).status).toBe(404);
  });
});
