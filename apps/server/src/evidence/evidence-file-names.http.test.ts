import { expect, it } from 'vitest';
import { LEARNER_HEADER, learnerLine, upload as importUpload } from '../testing/import-fixtures.js';
import { unzip } from '../testing/unzip.js';
import { describeEvidenceSuite, PDF } from './evidence-http-fixture.js';

/** A multipart body whose file part names itself with `disposition` as given (raw bytes or an RFC 5987 form). */
function withFileName(fields: Record<string, string>, disposition: Buffer): { body: Buffer; type: string } {
  const b = `----fundi${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields))
    parts.push(Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  parts.push(
    Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="file"; `),
    disposition,
    Buffer.from('\r\nContent-Type: application/pdf\r\n\r\n'),
    PDF,
    Buffer.from(`\r\n--${b}--\r\n`),
  );
  return { body: Buffer.concat(parts), type: `multipart/form-data; boundary=${b}` };
}

const encoded = (name: string) => Buffer.from(`filename*=UTF-8''${encodeURIComponent(name)}`);
const raw = (name: string) => Buffer.concat([Buffer.from('filename="'), Buffer.from(name), Buffer.from('"')]);

/**
 * File names that break the text rule, or hold a line break or tab, as a file part's own name, with the field the
 * refusal names: the part (`file`), or the body when a raw control byte makes the part's header itself unreadable.
 */
const BAD_NAMES: [string, Buffer, 'file' | 'body'][] = [
  ['NUL', Buffer.from("filename*=UTF-8''a%00b.pdf"), 'file'],
  ['CR LF', encoded('a\r\nb.pdf'), 'file'],
  ['LF', encoded('a\nb.pdf'), 'file'],
  ['tab', encoded('a\tb.pdf'), 'file'],
  ['ESC', encoded('a\u001bb.pdf'), 'file'],
  ['DEL', encoded('a\u007fb.pdf'), 'file'],
  ['C1', encoded('a\u0085b.pdf'), 'file'],
  ['RLO', encoded('invoice\u202Efdp.exe'), 'file'],
  ['LRI', encoded('a\u2066b.pdf'), 'file'],
  ['raw C1', raw('a\u009bb.pdf'), 'file'],
  ['raw RLO', raw('invoice\u202Efdp.exe'), 'file'],
  ['raw LRI', raw('a\u2066b.pdf'), 'file'],
  ['raw ESC', raw('a\u001bb.pdf'), 'body'],
];

/**
 * A file part's own name keeps the text rule like every other field (docs/api.md, "Text"), with no line break or tab
 * either: invalid input naming the part, nothing stored, on SQLite and Postgres alike (Postgres refuses NUL).
 */
describeEvidenceSuite('evidence over HTTP: file names', (world) => {
  it('refuses a file part whose own name breaks the text rule, in both forms, and stores nothing', async () => {
    const { s, admin, learnerId } = world();
    const fields = { learnerId, moduleId: 'KM-01', evidenceType: 'portfolio' };
    const files = async () => (await s.call('GET', '/api/v1/usage', admin)).body.files as number;
    const before = await files();
    for (const [what, disposition, field] of BAD_NAMES)
      for (const [prefix, status] of [
        ['/api/v1', 422],
        ['/v1/tenants/evi', 400],
      ] as const) {
        const m = withFileName(fields, disposition);
        const r = await s.call('POST', `${prefix}/evidence`, admin, m.body, { 'content-type': m.type });
        expect(r.status, `${what} ${prefix}`).toBe(status);
        expect(JSON.stringify(r.body.error), what).toContain(`"field":"${field}"`);
      }
    // Also when a `filename` field would have named the file instead.
    const named = withFileName({ ...fields, filename: 'fine.pdf' }, encoded('a\u202Eb.pdf'));
    expect((await s.call('POST', '/api/v1/evidence', admin, named.body, { 'content-type': named.type })).status).toBe(
      422,
    );
    expect(await files()).toBe(before);
    const good = withFileName(fields, encoded('Sertifikaat — Thandi é.pdf'));
    const ok = await s.call('POST', '/api/v1/evidence', admin, good.body, { 'content-type': good.type });
    expect(ok.status).toBe(201);
    expect(ok.body.filename).toBe('Sertifikaat — Thandi é.pdf');
  });

  it('refuses a filename field with a line break, direction override or control character, multipart or JSON', async () => {
    const { s, admin, learnerId } = world();
    const fields = { learnerId, moduleId: 'KM-01', evidenceType: 'portfolio' };
    for (const name of ['a\r\nb.pdf', 'a\nb.pdf', 'a\u202Eb.pdf', 'a\u0007b.pdf']) {
      const m = withFileName({ ...fields, filename: name }, raw('fine.pdf'));
      const multi = await s.call('POST', '/api/v1/evidence', admin, m.body, { 'content-type': m.type });
      expect(multi.status, JSON.stringify(name)).toBe(422);
      expect(multi.body.error.details, JSON.stringify(name)).toEqual([
        { field: 'filename', message: expect.any(String) },
      ]);
      const signed = await s.call('POST', '/api/v1/tenants/evi/evidence/upload', admin, {
        ...fields,
        filename: name,
        size: 10,
      });
      expect(signed.status, JSON.stringify(name)).toBe(400);
      expect(signed.body.error.details.field).toBe('filename');
    }
  });

  it('refuses a bad file name on a new version, and on an import upload, keeping nothing', async () => {
    const { s, admin, learnerId } = world();
    const m = withFileName({ learnerId, moduleId: 'KM-01', evidenceType: 'logbook' }, raw('v1.pdf'));
    const first = await s.call('POST', '/api/v1/evidence', admin, m.body, { 'content-type': m.type });
    expect(first.status).toBe(201);
    const id = first.body.id as string;
    await s.call('PATCH', `/api/v1/evidence/${id}`, admin, { status: 'revision_requested' });
    for (const [what, disposition, field] of BAD_NAMES) {
      const v = withFileName({}, disposition);
      const r = await s.call('POST', `/api/v1/evidence/${id}/versions`, admin, v.body, { 'content-type': v.type });
      expect(r.status, what).toBe(422);
      expect(r.body.error.details, what).toEqual([{ field, message: expect.any(String) }]);
    }
    expect((await s.call('GET', `/api/v1/evidence/${id}`, admin)).body).toMatchObject({ version: 1 });

    const imports = async () => (await s.call('GET', '/api/v1/imports', admin)).body.pagination.total as number;
    const before = await imports();
    const csv = `${LEARNER_HEADER}\n${learnerLine(1)}\n`;
    for (const name of ['a\u2066.csv', 'a\u202E.csv', 'a\u0085.csv']) {
      const r = await importUpload(s, admin, '/api/v1', 'learners', csv, undefined, name);
      expect(r.status, JSON.stringify(name)).toBe(422);
      expect(r.body.error.details, JSON.stringify(name)).toEqual([{ field: 'file', message: expect.any(String) }]);
    }
    expect(await imports()).toBe(before);
  });

  it('writes a stored name that breaks the rule out with `_` in downloads and bulk ZIP entries', async () => {
    const { s, admin, learnerId } = world();
    const m = withFileName({ learnerId, moduleId: 'KM-01', evidenceType: 'other' }, raw('old.pdf'));
    const made = await s.call('POST', '/api/v1/evidence', admin, m.body, { 'content-type': m.type });
    // A name stored before the rule applied to file parts.
    await s.storage.db!.run('UPDATE evidence_versions SET filename = ? WHERE evidence_id = ?', [
      'invoice\u202Efdp.exe\u001b',
      made.body.id,
    ]);
    const grant = await s.call('GET', `/api/v1/evidence/${made.body.id}/download`, admin);
    const file = await fetch(grant.body.url);
    expect(file.headers.get('content-disposition')).toBe('attachment; filename="invoice_fdp.exe_"');
    const bulk = await s.call('POST', '/api/v1/evidence/bulk-download', admin, { evidenceIds: [made.body.id] });
    const zip = Buffer.from(await (await fetch(bulk.body.url)).arrayBuffer());
    expect([...(await unzip(zip)).keys()]).toEqual([`${learnerId}/KM-01/${made.body.id}-v1-invoice_fdp.exe_`]);
  });
});
