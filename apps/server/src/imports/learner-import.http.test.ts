import { expect, it } from 'vitest';
import type { TestServer } from '../testing/test-server.js';
import { LEARNER_HEADER, idNumberFor, learnerLine, settled, upload } from '../testing/import-fixtures.js';
import { A, B, V1, describeImportSuite } from './imports-http-fixture.js';

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
  // The dispatcher's queue of events to fan out, drained by the worker at its own pace (the events themselves count).
  'outbox_pending',
  'audit_log',
  'rate_limit_counters',
  // Each key's daily request count, written by the meter after requests (the test's own polling included).
  'api_key_usage',
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

/** Learner files: dry run and confirm, learners without an SA ID, the re-check at confirm, messy CSV. */
describeImportSuite('imports over HTTP: learners', (world) => {
  it('a dry run writes nothing; confirm writes exactly the valid rows, once, with their events', async () => {
    const { s, admin } = world();
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
    // Each error names the cell's value and the learner the row names (the ID number only when it is one).
    expect(v).toMatchObject({ rowsWithErrors: 4 });
    expect(v.errors).toEqual([
      {
        row: 3,
        field: 'id_number',
        error: expect.stringContaining(''),
        value: '1234567890123',
        learner: { name: 'Name101 Surname101', idNumber: '1234567890123' },
      },
      {
        row: 4,
        field: 'email',
        error: expect.any(String),
        value: 'not-an-email',
        learner: { name: 'Name102 Surname102', idNumber: idNumberFor(102) },
      },
      {
        row: 6,
        field: 'email',
        error: 'same email as row 2',
        value: 'LEARNER100@example.com',
        learner: { name: 'Name104 Surname104', idNumber: idNumberFor(104) },
      },
      {
        row: 7,
        field: 'id_number',
        error: 'same ID number as row 5',
        value: idNumberFor(103),
        learner: { name: 'Name105 Surname105', idNumber: idNumberFor(103) },
      },
    ]);
    expect(await tableCounts(s)).toEqual(before);

    const c = await s.call('POST', `${A}/imports/${r.body.id}/confirm`, admin);
    expect(c.status).toBe(202);
    expect(c.body).toMatchObject({ status: 'importing' });
    const done = await settled(s, admin, A, r.body.id, ['completed']);
    expect(done).toMatchObject({ totalRows: 6, validRows: 2, importedRows: 2, errorCount: 4 });
    const after = await tableCounts(s);
    expect(after.learners).toBe(before.learners! + 2);
    // One compact event for the batch (no subscription wants its learner.created events) and import.completed.
    expect(after.outbox_events).toBe(before.outbox_events! + 2);
    const listed = await s.call('GET', `${A}/learners?limit=100`, admin);
    expect(listed.body.data.map((l: { idNumber: string }) => l.idNumber).sort()).toEqual(
      [idNumberFor(100), idNumberFor(103)].sort(),
    );
    const events = await s.storage.db!.all<{ type: string; data: string }>(
      "SELECT type, data FROM outbox_events WHERE type IN ('learner.created', 'learners.written', 'import.completed') ORDER BY id",
    );
    expect(events.map((e) => e.type)).toEqual(['learners.written', 'import.completed']);
    expect(JSON.parse(events[0]!.data).learnerIds.sort()).toEqual(
      listed.body.data.map((l: { id: string }) => l.id).sort(),
    );
    expect(JSON.parse(events[1]!.data)).toMatchObject({ importId: r.body.id, importedRows: 2, invalidRows: 4 });

    for (const prefix of [A, B, V1]) {
      const again = await s.call('POST', `${prefix}/imports/${r.body.id}/confirm`, admin);
      expect(again.status).toBe(409);
      expect(again.body.error.code).toBe(prefix === A ? 'conflict' : 'CONFLICT');
    }
    expect(await tableCounts(s)).toEqual(after);
  });

  it('learners without an SA ID: alternative ID columns, duplicates in the file and in the tenant reported', async () => {
    const { s, admin } = world();
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
    const { s, admin } = world();
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
    expect(done.errors).toMatchObject([
      { row: 3, field: 'id_number', error: `a learner with this ID number exists already (${made.body.id})` },
    ]);
  });

  it('the messy fixture: BOM, CRLF, quoted comma and newline, a blank row, an unknown column', async () => {
    const { s, admin } = world();
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
    expect(done.errors).toMatchObject([
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

  it('refuses cells POST /learners refuses: controls, DEL, C1 and direction overrides, naming the column', async () => {
    const { s, admin } = world();
    const bad: [string, string][] = [
      ['first_name', 'Es\u001bc'],
      ['last_name', 'Bell\u0007'],
      ['employer', 'Acme\u007f'],
      ['employer', 'Acme\u0085Mining'],
      ['first_name', 'gnp.\u202Eexe'],
      ['department', 'Ops\u2066'],
      ['enrolment', 'ignored\u001b'],
    ];
    const header = `${LEARNER_HEADER},employer,department,enrolment`;
    const line = (n: number, column: string, value: string) => {
      const cells = [...learnerLine(n).split(','), 'Acme', 'Ops', ''];
      const i = header.split(',').indexOf(column);
      cells[i] = `"${value}"`;
      return cells.join(',');
    };
    const rows = bad.map(([column, value], i) => line(600 + i, column, value));
    const learnersBefore = (await s.call('GET', `${A}/learners?limit=1`, admin)).body.pagination.total as number;
    const r = await upload(s, admin, A, 'learners', `${header}\n${rows.join('\n')}\n${learnerLine(690)},Acme,Ops,\n`, {
      dryRun: false,
    });
    expect(r.status).toBe(202);
    const done = await settled(s, admin, A, r.body.id, ['completed', 'failed']);
    // The unknown column `enrolment` is ignored, its cells unread; every other bad cell is named on its row.
    expect(done).toMatchObject({ status: 'completed', totalRows: 8, importedRows: 2 });
    expect(done.errors).toMatchObject([
      { row: 1, field: 'enrolment', error: expect.stringContaining('unknown column') },
      ...bad.slice(0, 6).map(([field], i) => ({
        row: 2 + i,
        field,
        error: 'contains a control character, a direction override or an unpaired surrogate',
      })),
    ]);
    // The API refuses the same values, from the same rule.
    for (const [, value] of bad.slice(0, 6)) {
      const api = await s.call('POST', `${A}/learners`, admin, {
        firstName: value,
        lastName: 'X',
        idNumber: idNumberFor(699),
      });
      expect(api.status, JSON.stringify(value)).toBe(422);
    }
    expect((await s.call('GET', `${A}/learners?limit=1`, admin)).body.pagination.total).toBe(learnersBefore + 2);
  });
});
