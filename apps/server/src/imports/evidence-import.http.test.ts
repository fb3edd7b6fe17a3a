import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachStorage } from '@fundi/adapters/testing';
import { PASSWORD, WebClient, staffUser } from '../testing/dashboard-client.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import { enrolledLearner } from '../testing/training-fixtures.js';
import { idNumberFor, settled, upload } from '../testing/import-fixtures.js';

const A = '/api/v1';
const B = '/api/v1/tenants/evimp';
const V1 = '/v1/tenants/evimp';
const HEADER = 'id_number,learner_id,module_code,evidence_type,filename,description';
const PDF = Buffer.concat([
  Buffer.from('%PDF-1.7\n'),
  Buffer.from('imported evidence\n'.repeat(200)),
  Buffer.from('%%EOF\n'),
]);

async function count(s: TestServer, sql: string): Promise<number> {
  return Number((await s.storage.db!.first<{ n: number }>(sql))!.n);
}

describeEachStorage(
  'evidence imports over HTTP',
  (_get, kind) => {
    let s: TestServer;
    let admin: string;
    let learnerId: string;
    const idNumber = idNumberFor(5100);

    beforeAll(async () => {
      s = await startTestServer(kind, { worker: {} });
      admin = (await s.tenant('evimp')).key;
      await staffUser(s.container, 'evimp', 'admin');
      ({ learnerId } = await enrolledLearner(s, admin, A, { code: 'P-EVIMP', idNumber, modules: ['KM-01', 'PM-01'] }));
      const unenrolled = await s.call('POST', `${A}/learners`, admin, {
        firstName: 'Not',
        lastName: 'Enrolled',
        idNumber: idNumberFor(5101),
      });
      expect(unenrolled.status).toBe(201);
    });
    afterAll(() => s?.close());

    it('dry run writes nothing; confirm makes records awaiting their files; an upload URL and a PUT make them submitted', async () => {
      const csv = [
        HEADER,
        `${idNumber},,KM-01,portfolio,C:\\portfolios\\KM-01 portfolio.pdf,Knowledge module 1`,
        `,${learnerId},PM-01,logbook,logbook.pdf,`,
        `${idNumberFor(5199)},,KM-01,portfolio,x.pdf,`,
        `${idNumber},,XX-99,portfolio,x.pdf,`,
        `${idNumber},,KM-01,essay,x.pdf,`,
        `${idNumber},,KM-01,other,../..,`,
        `${idNumber},,KM-01,observation,km-01 PORTFOLIO.pdf,copy of row 2`,
        `${idNumber},,KM-01,other,long.pdf,${'d'.repeat(2001)}`,
        `${idNumberFor(5101)},,KM-01,other,y.pdf,`,
        `,,KM-01,other,z.pdf,`,
      ].join('\n');
      const evidenceBefore = await count(s, 'SELECT COUNT(*) AS n FROM evidence');
      const eventsBefore = await count(s, 'SELECT COUNT(*) AS n FROM outbox_events');
      const usageBefore = (await s.call('GET', `${A}/usage`, admin)).body;

      const r = await upload(s, admin, B, 'evidence', csv);
      expect(r.status).toBe(202);
      const v = await settled(s, admin, B, r.body.id, ['validated', 'failed']);
      expect(v).toMatchObject({ type: 'evidence', status: 'validated', totalRows: 10, validRows: 2, errorCount: 8 });
      expect(v.errors.map((e: { row: number; field: string }) => [e.row, e.field])).toEqual([
        [4, 'id_number'],
        [5, 'module_code'],
        [6, 'evidence_type'],
        [7, 'filename'],
        [8, 'filename'],
        [9, 'description'],
        [10, 'module_code'],
        [11, 'id_number'],
      ]);
      expect(v.errors[0].error).toContain('no learner');
      expect(v.errors[1].error).toContain('XX-99 is not a module');
      expect(v.errors[2].error).toContain('must be one of portfolio');
      expect(v.errors[4].error).toBe('same learner, module and file name as row 2');
      expect(v.errors[5].error).toBe('must be at most 2000 characters');
      expect(await count(s, 'SELECT COUNT(*) AS n FROM evidence')).toBe(evidenceBefore);
      expect(await count(s, 'SELECT COUNT(*) AS n FROM outbox_events')).toBe(eventsBefore);

      expect((await s.call('POST', `${A}/imports/${r.body.id}/confirm`, admin)).status).toBe(202);
      const done = await settled(s, admin, A, r.body.id, ['completed']);
      expect(done).toMatchObject({ importedRows: 2, validRows: 2, errorCount: 8 });
      expect(await count(s, 'SELECT COUNT(*) AS n FROM evidence')).toBe(evidenceBefore + 2);
      // No event per record (its file's `evidence.uploaded` comes later); the import's own completion only.
      const events = await s.storage.db!.all<{ type: string }>('SELECT type FROM outbox_events ORDER BY id');
      expect(events.slice(eventsBefore).map((e) => e.type)).toEqual(['import.completed']);

      const awaiting = await s.call('GET', `${A}/evidence?status=awaiting_upload&learnerId=${learnerId}`, admin);
      expect(awaiting.status).toBe(200);
      expect(awaiting.body.data).toMatchObject([
        {
          moduleId: 'KM-01',
          evidenceType: 'portfolio',
          filename: 'KM-01 portfolio.pdf',
          description: 'Knowledge module 1',
          status: 'awaiting_upload',
          version: 0,
          size: 0,
        },
        { moduleId: 'PM-01', evidenceType: 'logbook', filename: 'logbook.pdf', description: null, version: 0 },
      ]);
      const [first, second] = awaiting.body.data as { id: string }[];
      expect((await s.call('GET', `${A}/evidence?learnerId=${learnerId}`, admin)).body.data).toEqual([]);
      expect((await s.call('GET', `${B}/evidence?status=submitted`, admin)).body.data).toEqual([]);
      expect((await s.call('GET', `${A}/usage`, admin)).body).toMatchObject({
        bytesUsed: usageBefore.bytesUsed,
        files: usageBefore.files,
      });

      const review = await s.call('PATCH', `${A}/evidence/${first!.id}`, admin, { status: 'approved' });
      expect(review.status).toBe(409);
      expect(review.body.error).toMatchObject({ code: 'conflict', currentStatus: 'awaiting_upload' });
      const download = await s.call('GET', `${B}/evidence/${first!.id}/download`, admin);
      expect(download.status).toBe(409);
      expect(download.body.error).toMatchObject({ code: 'CONFLICT', currentStatus: 'awaiting_upload' });
      const bulk = await s.call('POST', `${A}/evidence/bulk-download`, admin, { evidenceIds: [first!.id] });
      expect(bulk.status).toBe(409);
      expect(bulk.body.error).toMatchObject({ code: 'conflict', awaiting: [first!.id] });
      const revision = await s.call('POST', `${A}/evidence/${first!.id}/versions/upload`, admin, {
        filename: 'a.pdf',
        size: 10,
      });
      expect(revision.status).toBe(409);

      // The dashboard offers the type, and shows such a record without a preview or a review form.
      const web = new WebClient(s.url);
      await web.signIn('evimp', 'admin@example.org', PASSWORD);
      const importsPage = await web.get('/dashboard/imports');
      expect(importsPage.text).toContain('<option value="evidence">evidence</option>');
      const detail = await web.get(`/dashboard/evidence/${first!.id}`);
      expect(detail.status).toBe(200);
      expect(detail.text).toContain('awaiting upload');
      expect(detail.text).toContain('Knowledge module 1');
      expect(detail.text).not.toContain('Request revision');
      const template = await web.get('/dashboard/imports/templates/evidence');
      expect(template.status).toBe(200);
      expect(template.text).toContain('module_code,evidence_type,filename');

      // Form A: an upload URL for the record, then the PUT.
      const badSize = await s.call('POST', `${A}/evidence/${first!.id}/upload`, admin, { size: 0 });
      expect(badSize.status).toBe(422);
      const grant = await s.call('POST', `${A}/evidence/${first!.id}/upload`, admin, { size: PDF.length });
      expect(grant.status).toBe(201);
      expect(grant.body).toMatchObject({ evidenceId: first!.id, version: 1, method: 'PUT' });
      const put = await s.call('PUT', new URL(grant.body.uploadUrl).pathname, undefined, PDF);
      expect(put.status).toBe(201);
      expect(put.body).toMatchObject({
        id: first!.id,
        status: 'submitted',
        version: 1,
        size: PDF.length,
        contentType: 'application/pdf',
        filename: 'KM-01 portfolio.pdf',
        description: 'Knowledge module 1',
      });
      const again = await s.call('POST', `${A}/evidence/${first!.id}/upload`, admin, { size: PDF.length });
      expect(again.status).toBe(409);
      expect(again.body.error).toMatchObject({ code: 'conflict', currentStatus: 'submitted' });

      // Form B: another record, a new file name, two URLs out: the first PUT wins, the second is a conflict.
      const g1 = await s.call('POST', `${B}/evidence/${second!.id}/upload`, admin, {
        size: PDF.length,
        filename: 'week 1/logbook-final.pdf',
      });
      const g2 = await s.call('POST', `${V1}/evidence/${second!.id}/upload`, admin, { size: PDF.length });
      expect([g1.status, g2.status]).toEqual([201, 201]);
      const put1 = await s.call(
        'PUT',
        `/api/v1/tenants/evimp${new URL(g1.body.uploadUrl).pathname.slice(7)}`,
        undefined,
        PDF,
      );
      expect(put1.status).toBe(201);
      expect(put1.body).toMatchObject({ status: 'submitted', version: 1, filename: 'logbook-final.pdf' });
      const put2 = await s.call('PUT', new URL(g2.body.uploadUrl).pathname, undefined, PDF);
      expect(put2.status).toBe(409);
      expect(await s.call('GET', `${A}/evidence/${second!.id}/versions`, admin)).toMatchObject({
        status: 200,
        body: { data: [{ version: 1, filename: 'logbook-final.pdf', size: PDF.length }] },
      });
      const got = await s.call('GET', `${A}/evidence/${second!.id}/download`, admin);
      expect(got.status).toBe(200);
      const bytes = await fetch(got.body.url);
      expect(Buffer.from(await bytes.arrayBuffer()).equals(PDF)).toBe(true);

      // Now in the review queue, each with one `evidence.uploaded` event.
      const queue = await s.call('GET', `${A}/evidence?status=submitted&learnerId=${learnerId}`, admin);
      expect(queue.body.data.map((e: { id: string }) => e.id)).toEqual([first!.id, second!.id]);
      expect(
        (await s.call('GET', `${A}/evidence?status=awaiting_upload&learnerId=${learnerId}`, admin)).body.data,
      ).toEqual([]);
      const uploaded = await s.storage.db!.all<{ data: string }>(
        "SELECT data FROM outbox_events WHERE type = 'evidence.uploaded' ORDER BY id",
      );
      expect(uploaded.map((e) => JSON.parse(e.data).evidenceId)).toEqual([first!.id, second!.id]);
      expect((await s.call('GET', `${A}/usage`, admin)).body).toMatchObject({
        bytesUsed: usageBefore.bytesUsed + 2 * PDF.length,
        files: usageBefore.files + 2,
      });
      const reviewed = await s.call('PATCH', `${B}/evidence/${first!.id}`, admin, { status: 'approved' });
      expect(reviewed.status).toBe(200);
    });

    it('pages many errors by errorsCursor (Form A) and errorsOffset (Form B); a tampered or foreign cursor is invalid', async () => {
      const lines = [HEADER];
      for (let i = 0; i < 1050; i++) lines.push(`${idNumber},,KM-01,bad-type,f${i}.pdf,`);
      const r = await upload(s, admin, A, 'evidence', lines.join('\n'));
      const v = await settled(s, admin, A, r.body.id, ['validated'], '?errorsLimit=1');
      expect(v).toMatchObject({ errorCount: 1050, validRows: 0 });
      const rows: number[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const q: string = cursor ? `&errorsCursor=${encodeURIComponent(cursor)}` : '';
        const page = await s.call('GET', `${A}/imports/${r.body.id}?errorsLimit=400${q}`, admin);
        expect(page.status).toBe(200);
        expect(page.body.errorsPage).toMatchObject({ limit: 400, total: 1050, offset: rows.length });
        rows.push(...page.body.errors.map((e: { row: number }) => e.row));
        cursor = page.body.errorsPage.nextCursor;
        expect(page.body.errorsPage.hasMore).toBe(cursor !== null);
        pages++;
      } while (cursor);
      expect(pages).toBe(3);
      expect(rows).toEqual(Array.from({ length: 1050 }, (_, i) => i + 2));

      const b = await s.call('GET', `${B}/imports/${r.body.id}?errorsLimit=100&errorsOffset=1000`, admin);
      expect(b.body.errors).toHaveLength(50);
      expect(b.body.errorsPage).toEqual({ offset: 1000, limit: 100, total: 1050, hasMore: false, nextCursor: null });

      const first = await s.call('GET', `${A}/imports/${r.body.id}?errorsLimit=10`, admin);
      const good: string = first.body.errorsPage.nextCursor;
      const at = Math.floor(good.length / 2);
      const tampered = `${good.slice(0, at)}${good[at] === 'A' ? 'B' : 'A'}${good.slice(at + 1)}`;
      const bad = await s.call('GET', `${A}/imports/${r.body.id}?errorsCursor=${encodeURIComponent(tampered)}`, admin);
      expect(bad.status).toBe(422);
      expect(bad.body.error.details).toEqual([{ field: 'errorsCursor', message: expect.any(String) }]);
      const badB = await s.call('GET', `${B}/imports/${r.body.id}?errorsCursor=${encodeURIComponent(tampered)}`, admin);
      expect(badB.status).toBe(400);
      expect(badB.body.error.details).toMatchObject({ field: 'errorsCursor' });

      const other = await upload(s, admin, A, 'evidence', `${HEADER}\n${idNumber},,KM-01,bad-type,x.pdf,\n`);
      await settled(s, admin, A, other.body.id, ['validated']);
      const foreign = await s.call(
        'GET',
        `${A}/imports/${other.body.id}?errorsCursor=${encodeURIComponent(good)}`,
        admin,
      );
      expect(foreign.status).toBe(422);
      const otherTenant = (await s.tenant('evimp-other')).key;
      expect(
        (await s.call('GET', `${A}/imports/${r.body.id}?errorsCursor=${encodeURIComponent(good)}`, otherTenant)).status,
      ).toBe(404);
      const both = await s.call(
        'GET',
        `${A}/imports/${r.body.id}?errorsCursor=${encodeURIComponent(good)}&errorsOffset=3`,
        admin,
      );
      expect(both.status).toBe(422);
      const resumed = await s.call(
        'GET',
        `${A}/imports/${r.body.id}?errorsLimit=5&errorsCursor=${encodeURIComponent(good)}`,
        admin,
      );
      expect(resumed.body.errors.map((e: { row: number }) => e.row)).toEqual([12, 13, 14, 15, 16]);
    });

    it("confirms in batches, each row once; enrolment_id picks the enrolment and must be the learner's", async () => {
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
      expect(done.errors).toEqual([{ row: 1102, field: 'enrolment_id', error: 'is not an enrolment of this learner' }]);
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
      expect(v.errors).toEqual([{ row: 2, field: 'filename', error: exists(essay.id) }]);
      expect((await s.call('POST', `${A}/imports/${r.body.id}/confirm`, admin)).status).toBe(202);
      expect(await settled(s, admin, A, r.body.id, ['completed'])).toMatchObject({ importedRows: 3, errorCount: 1 });
      expect(await evidence()).toBe(before + 3);
      const made = await s.storage.db!.all<{ id: string; module_id: string; awaiting_filename: string }>(
        'SELECT id, module_id, awaiting_filename FROM evidence WHERE learner_id = ? AND version = 0',
        [learnerId],
      );
      const idOf = (moduleId: string, filename: string) =>
        made.find((e) => e.module_id === moduleId && e.awaiting_filename === filename)!.id;

      // The same file again: every row is refused on filename, naming the record; confirm writes nothing.
      const again = await upload(s, admin, A, 'evidence', csv);
      const v2 = await settled(s, admin, A, again.body.id, ['validated', 'failed']);
      expect(v2).toMatchObject({ status: 'validated', totalRows: 4, validRows: 0, errorCount: 4 });
      const refused = [
        { row: 2, field: 'filename', error: exists(essay.id) },
        { row: 3, field: 'filename', error: exists(idOf('KM-01', 'dup-1.pdf')) },
        { row: 4, field: 'filename', error: exists(idOf('PM-01', 'dup-2.pdf')) },
        { row: 5, field: 'filename', error: exists(idOf('PM-01', 'Essay Final.pdf')) },
      ];
      expect(v2.errors).toEqual(refused);
      expect((await s.call('POST', `${A}/imports/${again.body.id}/confirm`, admin)).status).toBe(202);
      const done2 = await settled(s, admin, A, again.body.id, ['completed']);
      expect(done2).toMatchObject({ importedRows: 0, validRows: 0, errorCount: 4 });
      expect(done2.errors).toEqual(refused);
      expect(await evidence()).toBe(before + 3);

      // Deleted evidence does not count; evidence made through the API after the dry run is caught by confirm.
      expect((await s.call('DELETE', `${A}/evidence/${essay.id}`, admin)).status).toBe(204);
      const third = await upload(
        s,
        admin,
        A,
        'evidence',
        [HEADER, `${idNumber},,KM-01,assignment,Essay Final.pdf,`, `${idNumber},,KM-01,assignment,later.pdf,`].join(
          '\n',
        ),
      );
      expect(await settled(s, admin, A, third.body.id, ['validated', 'failed'])).toMatchObject({
        validRows: 2,
        errorCount: 0,
      });
      const later = await viaApi('LATER.PDF');
      expect((await s.call('POST', `${A}/imports/${third.body.id}/confirm`, admin)).status).toBe(202);
      const done3 = await settled(s, admin, A, third.body.id, ['completed']);
      expect(done3).toMatchObject({ importedRows: 1, validRows: 1, errorCount: 1 });
      expect(done3.errors).toEqual([{ row: 3, field: 'filename', error: exists(later.id) }]);
      expect(await evidence()).toBe(before + 3 + 1 + 1);
    });

    it('serves the evidence template in both forms', async () => {
      for (const prefix of [A, B, V1]) {
        const t = await s.call('GET', `${prefix}/imports/templates/evidence`, admin);
        expect(t.status).toBe(200);
        const [header, example, rest] = (t.body as string).split('\r\n');
        expect(header).toBe('id_number,learner_id,module_code,evidence_type,filename,description,enrolment_id');
        expect(example!.split(',')).toHaveLength(7);
        expect(rest).toBe('');
      }
    });
  },
  ['sqlite', 'postgres'],
);
