import { expect, it } from 'vitest';
import { PASSWORD, WebClient } from '../testing/dashboard-client.js';
import { idNumberFor, settled, upload } from '../testing/import-fixtures.js';
import { A, B, HEADER, PDF, V1, count, describeEvidenceImportSuite } from './evidence-import-fixture.js';

/** An evidence import from dry run to records awaiting their files, then their upload URLs and PUTs. */
describeEvidenceImportSuite('evidence imports over HTTP: records awaiting their files', (world) => {
  it('dry run writes nothing; confirm makes records awaiting their files; an upload URL and a PUT make them submitted', async () => {
    const { s, admin, learnerId, idNumber } = world();
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
    expect(v.errors[0].error).toContain('names no learner');
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
    expect(grant.headers.get('location')).toBe(`${A}/evidence/${first!.id}`);
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
    expect([g1.headers.get('location'), g2.headers.get('location')]).toEqual([
      `${B}/evidence/${second!.id}`,
      `${V1}/evidence/${second!.id}`,
    ]);
    const put1 = await s.call(
      'PUT',
      `/api/v1/tenants/evimp${new URL(g1.body.uploadUrl).pathname.slice(7)}`,
      undefined,
      PDF,
    );
    expect(put1.status).toBe(201);
    expect(put1.body).toMatchObject({ status: 'submitted', version: 1, filename: 'logbook-final.pdf' });
    expect(put1.headers.get('location')).toBe(`/api/v1/tenants/evimp/evidence/${second!.id}`);
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
});
