import { expect, it } from 'vitest';
import { settled, upload } from '../testing/import-fixtures.js';
import { A, B, HEADER, PDF, V1, count, describeEvidenceImportSuite } from './evidence-import-fixture.js';

/** Which rows of an evidence import are written: batches, enrolments, evidence there is already; the template. */
describeEvidenceImportSuite('evidence imports over HTTP: rows written', (world) => {
  it("confirms in batches, each row once; enrolment_id picks the enrolment and must be the learner's", async () => {
    const { s, admin, learnerId, idNumber } = world();
    const enrolments = await s.call('GET', `${A}/enrolments?learnerId=${learnerId}`, admin);
    const enrolmentId: string = enrolments.body.data[0].id;
    const lines = [`${HEADER},enrolment_id`];
    for (let i = 0; i < 1100; i++) lines.push(`${idNumber},,PM-01,workplace_evidence,batch-${i}.pdf,,${enrolmentId}`);
    lines.push(`${idNumber},,PM-01,workplace_evidence,stray.pdf,,enr_not_theirs`);
    const before = await count(s, 'SELECT COUNT(*) AS n FROM evidence');
    const r = await upload(s, admin, V1, 'evidence', lines.join('\n'), { dryRun: false });
    expect(r.status).toBe(202);
    const done = await settled(s, admin, V1, r.body.id, ['completed', 'failed'], '?errorsLimit=5');
    expect(done).toMatchObject({ status: 'completed', totalRows: 1101, importedRows: 1100, errorCount: 1 });
    expect(done.errors).toMatchObject([
      { row: 1102, field: 'enrolment_id', error: 'is not an enrolment of this learner' },
    ]);
    expect(await count(s, 'SELECT COUNT(*) AS n FROM evidence')).toBe(before + 1100);
    const listed = await s.call(
      'GET',
      `${B}/evidence?status=awaiting_upload&enrolmentId=${enrolmentId}&moduleId=PM-01&limit=100&offset=1000`,
      admin,
    );
    expect(listed.body.pagination.total).toBe(1100);
    expect(listed.body.data.map((e: { filename: string }) => e.filename)).toEqual(
      Array.from({ length: 100 }, (_, i) => `batch-${1000 + i}.pdf`),
    );
    const audit = await s.storage.db!.all<{ details: string }>(
      "SELECT details FROM audit_log WHERE action = 'import.rows_written' AND resource_id = ?",
      [r.body.id],
    );
    expect(audit.map((a) => JSON.parse(a.details).rows).sort()).toEqual([100, 1000]);
  });

  it('refuses rows naming evidence there is already (through the API or an earlier import), at the dry run and again at confirm', async () => {
    const { s, admin, learnerId, idNumber } = world();
    // Evidence made through the API (Form A), stored as the upload routes clean its name.
    const viaApi = async (filename: string) => {
      const grant = await s.call('POST', `${A}/evidence/upload`, admin, {
        learnerId,
        moduleId: 'KM-01',
        evidenceType: 'assignment',
        filename,
        size: PDF.length,
      });
      expect(grant.status).toBe(201);
      const put = await s.call('PUT', new URL(grant.body.uploadUrl).pathname, undefined, PDF);
      expect(put.status).toBe(201);
      return put.body as { id: string; filename: string; status: string };
    };
    const essay = await viaApi('drafts/Essay Final.pdf');
    expect(essay).toMatchObject({ filename: 'Essay Final.pdf', status: 'submitted' });
    const exists = (id: string) => `evidence with this file name exists already for this learner and module (${id})`;
    const csv = [
      HEADER,
      `${idNumber},,KM-01,assignment,C:\\work\\essay final.PDF,`,
      `,${learnerId},KM-01,logbook,dup-1.pdf,`,
      `${idNumber},,PM-01,logbook,dup-2.pdf,`,
      `${idNumber},,PM-01,logbook,Essay Final.pdf,another module`,
    ].join('\n');
    const evidence = () => count(s, 'SELECT COUNT(*) AS n FROM evidence');
    const before = await evidence();

    const r = await upload(s, admin, B, 'evidence', csv);
    const v = await settled(s, admin, B, r.body.id, ['validated', 'failed']);
    expect(v).toMatchObject({ status: 'validated', totalRows: 4, validRows: 3, errorCount: 1 });
    expect(v.errors).toMatchObject([{ row: 2, field: 'filename', error: exists(essay.id) }]);
    expect((await s.call('POST', `${A}/imports/${r.body.id}/confirm`, admin)).status).toBe(202);
    expect(await settled(s, admin, A, r.body.id, ['completed'])).toMatchObject({ importedRows: 3, errorCount: 1 });
    expect(await evidence()).toBe(before + 3);
    const made = await s.storage.db!.all<{ id: string; module_id: string; awaiting_filename: string }>(
      'SELECT id, module_id, awaiting_filename FROM evidence WHERE learner_id = ? AND version = 0',
      [learnerId],
    );
    const idOf = (moduleId: string, filename: string) =>
      made.find((e) => e.module_id === moduleId && e.awaiting_filename === filename)!.id;

    // The same file again: every row is refused on filename, naming the record; with no valid row, confirm is
    // refused and nothing is written.
    const again = await upload(s, admin, A, 'evidence', csv);
    const v2 = await settled(s, admin, A, again.body.id, ['validated', 'failed']);
    expect(v2).toMatchObject({ status: 'validated', totalRows: 4, validRows: 0, errorCount: 4 });
    const refused = [
      { row: 2, field: 'filename', error: exists(essay.id) },
      { row: 3, field: 'filename', error: exists(idOf('KM-01', 'dup-1.pdf')) },
      { row: 4, field: 'filename', error: exists(idOf('PM-01', 'dup-2.pdf')) },
      { row: 5, field: 'filename', error: exists(idOf('PM-01', 'Essay Final.pdf')) },
    ];
    expect(v2.errors).toMatchObject(refused);
    expect((await s.call('POST', `${A}/imports/${again.body.id}/confirm`, admin)).status).toBe(409);
    expect(await evidence()).toBe(before + 3);

    // Deleted evidence does not count; evidence made through the API after the dry run is caught by confirm.
    expect((await s.call('DELETE', `${A}/evidence/${essay.id}`, admin)).status).toBe(204);
    const third = await upload(
      s,
      admin,
      A,
      'evidence',
      [HEADER, `${idNumber},,KM-01,assignment,Essay Final.pdf,`, `${idNumber},,KM-01,assignment,later.pdf,`].join('\n'),
    );
    expect(await settled(s, admin, A, third.body.id, ['validated', 'failed'])).toMatchObject({
      validRows: 2,
      errorCount: 0,
    });
    const later = await viaApi('LATER.PDF');
    expect((await s.call('POST', `${A}/imports/${third.body.id}/confirm`, admin)).status).toBe(202);
    const done3 = await settled(s, admin, A, third.body.id, ['completed']);
    expect(done3).toMatchObject({ importedRows: 1, validRows: 1, errorCount: 1 });
    expect(done3.errors).toMatchObject([{ row: 3, field: 'filename', error: exists(later.id) }]);
    expect(await evidence()).toBe(before + 3 + 1 + 1);
  });

  it('serves the evidence template in both forms', async () => {
    const { s, admin } = world();
    for (const prefix of [A, B, V1]) {
      const t = await s.call('GET', `${prefix}/imports/templates/evidence`, admin);
      expect(t.status).toBe(200);
      const [header, example, rest] = (t.body as string).split('\r\n');
      expect(header).toBe('id_number,learner_id,module_code,evidence_type,filename,description,enrolment_id');
      expect(example!.split(',')).toHaveLength(7);
      expect(rest).toBe('');
    }
  });
});
