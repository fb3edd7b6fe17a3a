import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachStorage } from '@fundi/adapters/testing';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import { programmeBody } from '../testing/training-fixtures.js';
import { LEARNER_HEADER, idNumberFor, learnerLine, settled, upload } from '../testing/import-fixtures.js';

/**
 * Tables an upload itself writes to (the import, its errors, its job, the audit entry of the upload) and the
 * request counters of the rate limits.
 */
const IMPORT_MACHINERY = new Set([
  'imports',
  'import_errors',
  'jobs',
  // Written by the worker for earlier writes (the welcome mail of learners created before), not by the upload.
  'notifications',
  'audit_log',
  'rate_limit_counters',
  'knex_migrations',
  'knex_migrations_lock',
]);

async function tableCounts(s: TestServer): Promise<Record<string, number>> {
  const db = s.storage.db!;
  const names =
    s.storage.target!.kind === 'sqlite'
      ? await db.all<{ name: string }>(
          "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
        )
      : await db.all<{ name: string }>(
          'SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema()',
        );
  const out: Record<string, number> = {};
  for (const { name } of names) {
    if (IMPORT_MACHINERY.has(name)) continue;
    out[name] = Number((await db.first<{ n: number }>(`SELECT COUNT(*) AS n FROM "${name}"`))!.n);
  }
  return out;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

const A = '/api/v1';

describeEachStorage(
  'imports over HTTP',
  (_get, kind) => {
    let s: TestServer;
    let admin: string;
    const B = '/api/v1/tenants/imp';
    const V1 = '/v1/tenants/imp';

    beforeAll(async () => {
      s = await startTestServer(kind, { worker: {} });
      admin = (await s.tenant('imp')).key;
    });
    afterAll(() => s?.close());

    it('a dry run writes nothing; confirm writes exactly the valid rows, once, with their events', async () => {
      const before = await tableCounts(s);
      const csv = [
        LEARNER_HEADER,
        learnerLine(100),
        learnerLine(101, { idNumber: '1234567890123' }),
        learnerLine(102, { email: 'not-an-email' }),
        learnerLine(103),
        learnerLine(104, { email: 'LEARNER100@example.com' }),
        learnerLine(105, { idNumber: idNumberFor(103) }),
      ].join('\n');
      const r = await upload(s, admin, B, 'learners', csv);
      expect(r.status).toBe(202);
      expect(r.body).toMatchObject({ type: 'learners', status: 'validating', dryRun: true, totalRows: 6 });
      const v = await settled(s, admin, B, r.body.id, ['validated', 'failed']);
      expect(v).toMatchObject({ status: 'validated', totalRows: 6, validRows: 2, importedRows: 0, errorCount: 4 });
      expect(v.errors).toEqual([
        { row: 3, field: 'id_number', error: expect.stringContaining('') },
        { row: 4, field: 'email', error: expect.any(String) },
        { row: 6, field: 'email', error: 'same email as row 2' },
        { row: 7, field: 'id_number', error: 'same ID number as row 5' },
      ]);
      expect(await tableCounts(s)).toEqual(before);

      const c = await s.call('POST', `${A}/imports/${r.body.id}/confirm`, admin);
      expect(c.status).toBe(202);
      expect(c.body).toMatchObject({ status: 'importing' });
      const done = await settled(s, admin, A, r.body.id, ['completed']);
      expect(done).toMatchObject({ totalRows: 6, validRows: 2, importedRows: 2, errorCount: 4 });
      const after = await tableCounts(s);
      expect(after.learners).toBe(before.learners! + 2);
      expect(after.outbox_events).toBe(before.outbox_events! + 3);
      const listed = await s.call('GET', `${A}/learners?limit=100`, admin);
      expect(listed.body.data.map((l: { idNumber: string }) => l.idNumber).sort()).toEqual(
        [idNumberFor(100), idNumberFor(103)].sort(),
      );
      const events = await s.storage.db!.all<{ type: string; data: string }>(
        "SELECT type, data FROM outbox_events WHERE type IN ('learner.created', 'import.completed') ORDER BY id",
      );
      expect(events.map((e) => e.type)).toEqual(['learner.created', 'learner.created', 'import.completed']);
      expect(JSON.parse(events[2]!.data)).toMatchObject({ importId: r.body.id, importedRows: 2, invalidRows: 4 });

      for (const prefix of [A, B, V1]) {
        const again = await s.call('POST', `${prefix}/imports/${r.body.id}/confirm`, admin);
        expect(again.status).toBe(409);
        expect(again.body.error.code).toBe(prefix === A ? 'conflict' : 'CONFLICT');
      }
      expect(await tableCounts(s)).toEqual(after);
    });

    it('learners without an SA ID: alternative ID columns, duplicates in the file and in the tenant reported', async () => {
      const made = await s.call('POST', `${A}/learners`, admin, {
        firstName: 'Existing',
        lastName: 'Passport',
        alternateId: 'ZA-TAKEN-1',
        alternateIdType: 'passport',
        dateOfBirth: '1991-05-06',
        gender: 'M',
        nationalityCode: 'ZIM',
      });
      expect(made.status).toBe(201);
      const csv = [
        'first_name,last_name,alternate_id,alternate_id_type,date_of_birth,gender,nationality_code',
        'Tendai,Moyo,ZW-900,passport,1993-07-08,F,ZIM',
        'Copy,Moyo,ZW-900,passport,1993-07-08,F,ZIM',
        'Taken,Person,ZA-TAKEN-1,passport,1990-01-01,M,ZIM',
        'No,Birthday,ZW-901,refugee,,F,ZIM',
      ].join('\n');
      const r = await upload(s, admin, A, 'learners', csv, { dryRun: false });
      const done = await settled(s, admin, A, r.body.id, ['completed', 'failed']);
      expect(done).toMatchObject({ status: 'completed', totalRows: 4, importedRows: 1 });
      expect(done.errors.map((e: { row: number; field: string }) => [e.row, e.field])).toEqual([
        [3, 'alternate_id'],
        [4, 'alternate_id'],
        [5, 'date_of_birth'],
      ]);
      const listed = await s.call('GET', `${A}/learners?search=ZW-900`, admin);
      expect(listed.body.data).toMatchObject([
        { firstName: 'Tendai', idNumber: null, alternateId: 'ZW-900', alternateIdType: 'passport', gender: 'F' },
      ]);
    });

    it('confirm re-checks: a learner created after the dry run is reported and the rest is written', async () => {
      const csv = [LEARNER_HEADER, learnerLine(200), learnerLine(201), learnerLine(202)].join('\r\n');
      const r = await upload(s, admin, A, 'learners', csv);
      expect((await settled(s, admin, A, r.body.id, ['validated'])).validRows).toBe(3);
      const made = await s.call('POST', `${A}/learners`, admin, {
        firstName: 'Early',
        lastName: 'Bird',
        idNumber: idNumberFor(201),
      });
      expect(made.status).toBe(201);
      await s.call('POST', `${V1}/imports/${r.body.id}/confirm`, admin);
      const done = await settled(s, admin, V1, r.body.id, ['completed']);
      expect(done).toMatchObject({ importedRows: 2, validRows: 2, errorCount: 1 });
      expect(done.errors).toEqual([
        { row: 3, field: 'id_number', error: `a learner with this ID number exists already (${made.body.id})` },
      ]);
    });

    it('the messy fixture: BOM, CRLF, quoted comma and newline, a blank row, an unknown column', async () => {
      const csv = `\uFEFF${[
        'first_name,last_name,id_number,email,favourite_colour,home_address_line1',
        `"Mokoena, Jr",Thabo,${idNumberFor(300)},thabo@example.com,blue,"12 Long St`,
        `Flat 3"`,
        '',
        `Zanele,Dube,${idNumberFor(301)},zanele@example.com,red,`,
        `Sipho,Ndlovu,${idNumberFor(302)},bad-email,green,`,
      ].join('\r\n')}\r\n`;
      const r = await upload(s, admin, B, 'learners', csv, { dryRun: false });
      expect(r.status).toBe(202);
      const done = await settled(s, admin, B, r.body.id, ['completed', 'failed']);
      expect(done).toMatchObject({ status: 'completed', totalRows: 4, importedRows: 2 });
      expect(done.errors).toEqual([
        { row: 1, field: 'favourite_colour', error: expect.stringContaining('unknown column') },
        { row: 3, field: 'row', error: 'blank row' },
        { row: 5, field: 'email', error: expect.any(String) },
      ]);
      const found = await s.call('GET', `${A}/learners?search=Mokoena`, admin);
      expect(found.body.data[0]).toMatchObject({
        firstName: 'Mokoena, Jr',
        homeAddress: { line1: '12 Long St\r\nFlat 3'.slice(0, 50) },
      });
    });

    it('whole-file problems fail the import with the line: missing column, Latin-1, empty, header only, not CSV', async () => {
      const cases: [string, Buffer | string, { row: number; field: string; error: RegExp }][] = [
        [
          'missing column',
          `first_name,id_number\nA,${idNumberFor(400)}\n`,
          { row: 1, field: 'last_name', error: /required column/ },
        ],
        [
          'latin-1',
          Buffer.concat([
            Buffer.from(`${LEARNER_HEADER}\n${learnerLine(401)}\n`),
            Buffer.from(`Ren\u00e9,Dupr\u00e9,${idNumberFor(402)},r@example.com,\n`, 'latin1'),
          ]),
          { row: 3, field: 'file', error: /not UTF-8 text: byte 0xE9 on line 3/ },
        ],
        ['empty', '', { row: 1, field: 'file', error: /is empty/ }],
        ['header only', `${LEARNER_HEADER}\r\n`, { row: 2, field: 'file', error: /no data rows/ }],
        ['xlsx', Buffer.from('504b0304140000000800', 'hex'), { row: 1, field: 'file', error: /not a CSV file/ }],
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
      const bad = await upload(s, admin, A, 'badgers', 'a\n1\n');
      expect(bad.status).toBe(422);
      const opts = await upload(s, admin, B, 'learners', `${LEARNER_HEADER}\n`, { dryRun: 'yes' });
      expect(opts.status).toBe(400);
      expect(opts.body.error.details.field).toBe('options.dryRun');
      expect((await s.call('GET', `${A}/imports/imp_nope`, admin)).status).toBe(404);
      expect((await s.call('POST', `${B}/imports/imp_nope/confirm`, admin)).status).toBe(404);
    });

    it('enrolments and assessments end to end, with learner references checked', async () => {
      const code = 'P-IMP1';
      expect((await s.call('POST', `${A}/programmes`, admin, programmeBody(code, ['KM-01', 'PM-01']))).status).toBe(
        201,
      );
      const learners = [LEARNER_HEADER, learnerLine(600), learnerLine(601)].join('\n');
      const l = await upload(s, admin, A, 'learners', learners, { dryRun: false });
      await settled(s, admin, A, l.body.id, ['completed']);
      const enrolments = [
        'id_number,programme_code,start_date,expected_completion_date,status',
        `${idNumberFor(600)},${code},2026-01-10,2026-12-31,enrolled`,
        `${idNumberFor(601)},${code},2026-01-10,,in_progress`,
        `${idNumberFor(602)},${code},2026-01-10,,`,
        `${idNumberFor(600)},${code},2026-01-10,,`,
        `${idNumberFor(601)},P-NONE,2026-01-10,,`,
        `${idNumberFor(601)},${code},2026-13-10,,`,
      ].join('\n');
      const e = await upload(s, admin, B, 'enrolments', enrolments);
      const ev = await settled(s, admin, B, e.body.id, ['validated']);
      expect(ev).toMatchObject({ totalRows: 6, validRows: 2 });
      expect(ev.errors.map((x: { row: number; field: string }) => [x.row, x.field])).toEqual([
        [4, 'id_number'],
        [5, 'programme_code'],
        [6, 'programme_code'],
        [7, 'start_date'],
      ]);
      await s.call('POST', `${B}/imports/${e.body.id}/confirm`, admin);
      expect(await settled(s, admin, B, e.body.id, ['completed'])).toMatchObject({ importedRows: 2 });
      const listed = await s.call('GET', `${A}/enrolments?programmeCode=${code}`, admin);
      expect(listed.body.data.map((x: { status: string }) => x.status).sort()).toEqual(['enrolled', 'in_progress']);

      const assessments = [
        'learner_id,module_code,assessment_type,outcome,assessment_date,assessor_email',
        `${idNumberFor(600)},KM-01,summative,C,2026-03-01,assessor@example.com`,
        `learner601@example.com,PM-01,formative,NYC,2026-03-02,`,
        `${idNumberFor(600)},ZZ-99,summative,C,2026-03-01,`,
        `${idNumberFor(600)},KM-01,summative,X,2026-03-01,`,
        `${idNumberFor(600)},KM-01,summative,C,2025-12-01,`,
      ].join('\n');
      const a = await upload(s, admin, V1, 'assessments', assessments, { dryRun: false });
      const done = await settled(s, admin, V1, a.body.id, ['completed']);
      expect(done).toMatchObject({ totalRows: 5, importedRows: 2 });
      expect(done.errors.map((x: { row: number; field: string }) => [x.row, x.field])).toEqual([
        [4, 'module_code'],
        [5, 'outcome'],
        [6, 'assessment_date'],
      ]);
      const recorded = await s.storage.db!.all<{ type: string }>(
        "SELECT type FROM outbox_events WHERE type LIKE 'assessment.%'",
      );
      expect(recorded).toHaveLength(4);
    });

    it('an enrolment file naming one learner twice in different ways is caught on the second row', async () => {
      expect((await s.call('POST', `${A}/programmes`, admin, programmeBody('P-IMP2', ['KM-01']))).status).toBe(201);
      const learner = await s.call('POST', `${A}/learners`, admin, {
        firstName: 'Two',
        lastName: 'Ways',
        idNumber: idNumberFor(950),
        email: 'two.ways@example.com',
      });
      expect(learner.status).toBe(201);
      const csv = [
        'learner_id,programme_code,start_date',
        `${idNumberFor(950)},P-IMP2,2026-01-10`,
        `Two.Ways@example.com,P-IMP2,2026-01-10`,
        `${learner.body.id},P-IMP2,2026-01-10`,
      ].join('\n');
      const r = await upload(s, admin, B, 'enrolments', csv, { dryRun: false });
      const done = await settled(s, admin, B, r.body.id, ['completed']);
      expect(done).toMatchObject({ importedRows: 1, errorCount: 2 });
      expect(done.errors).toEqual([
        { row: 3, field: 'programme_code', error: 'same learner and programme as row 2' },
        { row: 4, field: 'programme_code', error: 'same learner and programme as row 2' },
      ]);
    });

    it('errors are paged, listed as CSV, imports are listed, and templates have a header and an example', async () => {
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
      expect(rows[0]).toBe('row,field,error');
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

    it('keeps the uploaded file encrypted: none of its text reaches the file store', async () => {
      const marker = 'PLAINTEXT-MARKER-4471';
      const r = await upload(s, admin, A, 'learners', `${LEARNER_HEADER}\n${marker},X,${idNumberFor(900)},,\n`);
      await settled(s, admin, A, r.body.id, ['validated']);
      const stored = filesUnder(s.filesDir!).filter((f) => f.includes(r.body.id));
      expect(stored).toHaveLength(1);
      expect(readFileSync(stored[0]!).includes(marker)).toBe(false);
    });

    it('another tenant sees none of it; a read-only key cannot upload', async () => {
      const other = (await s.tenant('imp-other')).key;
      const mine = await upload(s, admin, A, 'learners', `${LEARNER_HEADER}\n${learnerLine(800)}\n`);
      expect((await s.call('GET', `${A}/imports/${mine.body.id}`, other)).status).toBe(404);
      expect((await s.call('POST', `${A}/imports/${mine.body.id}/confirm`, other)).status).toBe(404);
      const viewer = (await s.key('imp', 'viewer', ['learners:read'])).key;
      expect((await upload(s, viewer, A, 'learners', `${LEARNER_HEADER}\n`)).status).toBe(403);
    });
  },
  ['sqlite', 'postgres'],
);
