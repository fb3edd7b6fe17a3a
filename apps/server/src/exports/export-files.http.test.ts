import { expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { useCasesOf } from '@fundi/adapters';
import { exportsCapability } from '../capabilities/index.js';
import { FORMS } from '../testing/http-forms.js';
import { describeExportSuite } from '../testing/export-worlds.js';
import { unzip } from '../testing/unzip.js';

describeExportSuite('export files and download URLs over HTTP', '-files', (server, { finished, download, world }) => {
  it('full: a ZIP of the four CSVs and the logbook entries, parsed back', async () => {
    const { s } = server();
    const w = await world(FORMS[0]!);
    const q = await s.call('POST', `${w.prefix}/exports`, w.key, { type: 'full' });
    const done = await finished(w.prefix, w.key, q.body.id);
    expect(done).toMatchObject({ status: 'ready', format: 'zip', rowCount: 6 });
    const files = await unzip(await download(w.prefix, w.key, q.body.id));
    expect([...files.keys()]).toEqual([
      'learners.csv',
      'enrolments.csv',
      'assessments.csv',
      'evidence.csv',
      'logbook-entries.csv',
    ]);
    expect(files.get('logbook-entries.csv')!.toString('utf8')).toMatch(
      new RegExp(
        `^\uFEFF${[
          'id,learner_id,id_number,alternate_id,alternate_id_type,first_name,last_name,enrolment_id,module,date,hours',
          'activity,workplace,supervisor_name,supervisor_email,supervisor_mobile,status,submitted_at,submission_id',
          'signed_at,sign_off_outcome,sign_off_by,sign_off_at,sign_off_ip,sign_off_hash,sign_off_comment',
        ].join(',')}\r?\n$`,
      ),
    );
    const learners = parse(files.get('learners.csv')!, { bom: true, columns: true }) as Record<string, string>[];
    expect(learners.map((l) => l.id)).toEqual(w.learners.map((l) => l.id));
    expect(parse(files.get('enrolments.csv')!, { bom: true, columns: true })).toHaveLength(3);
    expect(parse(files.get('assessments.csv')!, { bom: true, columns: true })).toHaveLength(0);
    expect(files.get('evidence.csv')!.toString('utf8')).toMatch(/^\uFEFFid,learner_id,/);
  });

  it('atr and wsp: summary and learner detail, unknowns counted', async () => {
    const { s } = server();
    const w = await world(FORMS[1]!);
    const q = await s.call('POST', `${w.prefix}/exports`, w.key, {
      type: 'wsp',
      filters: { from: '2026-01-01', to: '2026-12-31' },
    });
    const done = await finished(w.prefix, w.key, q.body.id);
    expect(done).toMatchObject({ status: 'ready', format: 'zip', rowCount: 3 });
    const files = await unzip(await download(w.prefix, w.key, q.body.id));
    const summary = parse(files.get('wsp-summary.csv')!, { bom: true, columns: true }) as Record<string, string>[];
    expect(summary).toHaveLength(1);
    expect(summary[0]).toMatchObject({
      total: '3',
      completion_status: 'not_completed',
      african_female: '2',
      foreign_national_male: '1',
      disabled: '0',
      employed: '3',
    });
    const detail = parse(files.get('wsp-detail.csv')!, { bom: true, columns: true }) as Record<string, string>[];
    expect(detail.map((d) => d.id_type)).toEqual(['sa_id', 'sa_id', 'passport']);
    expect(detail[0]!.ofo_code).toBe('unknown');
  });

  it('atr: last year by default (none), the given period otherwise; a learner without codes counts as unknown', async () => {
    const { s } = server();
    const w = await world(FORMS[0]!);
    const bare = await s.call('POST', `${w.prefix}/learners`, w.key, {
      firstName: 'No',
      lastName: 'Codes',
      idNumber: w.spareIdNumber,
    });
    await s.call('POST', `${w.prefix}/enrolments`, w.key, {
      learnerId: bare.body.id,
      programmeCode: w.code,
      startDate: '2026-03-01',
    });
    const last = await s.call('POST', `${w.prefix}/exports`, w.key, { type: 'atr' });
    expect(await finished(w.prefix, w.key, last.body.id)).toMatchObject({ status: 'ready', rowCount: 0 });
    const q = await s.call('POST', `${w.prefix}/exports`, w.key, {
      type: 'atr',
      filters: { from: '2026-01-01', to: '2026-12-31' },
    });
    expect(await finished(w.prefix, w.key, q.body.id)).toMatchObject({ status: 'ready', rowCount: 4 });
    const files = await unzip(await download(w.prefix, w.key, q.body.id));
    const [row] = parse(files.get('atr-summary.csv')!, { bom: true, columns: true }) as Record<string, string>[];
    expect(row).toMatchObject({
      period_from: '2026-01-01',
      total: '4',
      unknown_female: '1',
      disability_unknown: '1',
      employment_unknown: '1',
      age_unknown: '0',
    });
    const detail = parse(files.get('atr-detail.csv')!, { bom: true, columns: true }) as Record<string, string>[];
    expect(detail.find((d) => d.learner_id === bare.body.id)).toMatchObject({
      population_group: 'unknown',
      equity_code: 'unknown',
      disability: 'unknown',
    });
  });

  it('downloads carry a strong ETag: If-None-Match answers 304, If-Range keeps a range only for the same file', async () => {
    const { s } = server();
    const w = await world(FORMS[1]!);
    const q = await s.call('POST', `${w.prefix}/exports`, w.key, { type: 'learners' });
    await finished(w.prefix, w.key, q.body.id);
    const g = await s.call('GET', `${w.prefix}/exports/${q.body.id}/download`, w.key);
    const path = new URL(g.body.url).pathname;
    const whole = await s.call('GET', path);
    expect(whole.status).toBe(200);
    const etag = whole.headers.get('etag')!;
    expect(etag).toMatch(/^"[^"]+"$/);
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    const text = whole.body as string;
    // Another signed URL of the same export names the same file, so the same validator.
    const again = await s.call('GET', `${w.prefix}/exports/${q.body.id}/download`, w.key);
    expect((await s.call('GET', new URL(again.body.url).pathname)).headers.get('etag')).toBe(etag);
    const cached = await s.call('GET', path, undefined, undefined, { 'if-none-match': etag });
    expect(cached.status).toBe(304);
    expect(cached.body).toBeNull();
    expect((await s.call('GET', path, undefined, undefined, { 'if-none-match': '"other"' })).status).toBe(200);
    const ranged = await s.call('GET', path, undefined, undefined, { range: 'bytes=3-9', 'if-range': etag });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-range')).toBe(`bytes 3-9/${whole.headers.get('content-length')}`);
    const stale = await s.call('GET', path, undefined, undefined, { range: 'bytes=3-9', 'if-range': '"other"' });
    expect(stale.status).toBe(200);
    expect(stale.body).toBe(text);
    // A second export of the same data is another file: another validator.
    const q2 = await s.call('POST', `${w.prefix}/exports`, w.key, { type: 'learners' });
    await finished(w.prefix, w.key, q2.body.id);
    const g2 = await s.call('GET', `${w.prefix}/exports/${q2.body.id}/download`, w.key);
    const other = await s.call('GET', new URL(g2.body.url).pathname, undefined, undefined, { 'if-none-match': etag });
    expect(other.status).toBe(200);
    expect(other.headers.get('etag')).not.toBe(etag);
  });

  it('download URLs: expired and altered ones are refused with the signed-URL codes; purged after 7 days', async () => {
    const { s, clock } = server();
    const w = await world(FORMS[0]!);
    const q = await s.call('POST', `${w.prefix}/exports`, w.key, { type: 'learners' });
    await finished(w.prefix, w.key, q.body.id);
    const g = await s.call('GET', `${w.prefix}/exports/${q.body.id}/download`, w.key);
    const token = g.body.url.split('/files/exports/')[1] as string;
    const altered = `${token.slice(0, -3)}${token.endsWith('AAA') ? 'BBB' : 'AAA'}`;
    const bad = await s.call('GET', `/api/v1/files/exports/${altered}`);
    expect(bad.status).toBe(403);
    expect(bad.body.error.code).toBe('signed_url_invalid');
    clock.advance(3601_000);
    const late = await s.call('GET', `/api/v1/files/exports/${token}`);
    expect(late.status).toBe(403);
    expect(late.body.error.code).toBe('signed_url_expired');
    clock.advance(7 * 86_400_000);
    const purged = await useCasesOf(s.container, exportsCapability).exports.purgeExpired.execute();
    expect(purged).toBeGreaterThanOrEqual(1);
    const after = await s.call('GET', `${w.prefix}/exports/${q.body.id}/download`, w.key);
    expect(after.status).toBe(409);
    const purgedExport = (await s.call('GET', `${w.prefix}/exports/${q.body.id}`, w.key)).body;
    expect(purgedExport.purgedAt).not.toBeNull();
    expect(purgedExport.purgeReason).toBe('expired');
    clock.set('2026-06-01T08:00:00.000Z');
  });
});
