import { expect, it } from 'vitest';
import { programmeBody } from '../testing/training-fixtures.js';
import { LEARNER_HEADER, idNumberFor, learnerLine, settled, upload } from '../testing/import-fixtures.js';
import { A, B, V1, describeImportSuite } from './imports-http-fixture.js';

/** Enrolment and assessment files, with their learner references checked. */
describeImportSuite('imports over HTTP: enrolments and assessments', (world) => {
  it('enrolments and assessments end to end, with learner references checked', async () => {
    const { s, admin } = world();
    const code = 'P-IMP1';
    expect((await s.call('POST', `${A}/programmes`, admin, programmeBody(code, ['KM-01', 'PM-01']))).status).toBe(201);
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
    const { s, admin } = world();
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
    expect(done.errors).toMatchObject([
      { row: 3, field: 'programme_code', error: 'same learner and programme as row 2' },
      { row: 4, field: 'programme_code', error: 'same learner and programme as row 2' },
    ]);
  });
});
