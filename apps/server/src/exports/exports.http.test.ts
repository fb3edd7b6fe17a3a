import { describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { FORMS } from '../testing/http-forms.js';
import { describeExportSuite, REGULATOR_SETTINGS as SETTINGS } from '../testing/export-worlds.js';

describeExportSuite('exports over HTTP', '', (server, { finished, download, world }) => {
  describe.each(FORMS.map((f) => [f.name, f] as const))('%s', (_name, form) => {
    it('regulator settings: admin only, replaced whole, codes checked', async () => {
      const { s } = server();
      const w = await world(form);
      const put = await s.call('PUT', `${w.prefix}/settings/regulator`, w.key, SETTINGS);
      expect(put.status, JSON.stringify(put.body)).toBe(200);
      expect(put.body).toEqual(SETTINGS);
      expect((await s.call('GET', `${w.prefix}/settings/regulator`, w.key)).body).toEqual(SETTINGS);
      const bad = await s.call('PUT', `${w.prefix}/settings/regulator`, w.key, { readinessTypeId: '9' });
      expect(bad.status).toBe(form.invalidStatus);
      expect(form.fields(bad.body)).toContain('readinessTypeId');
      const manager = (await s.key(w.slug, 'manager')).key;
      expect((await s.call('GET', `${w.prefix}/settings/regulator`, manager)).status).toBe(403);
      expect((await s.call('PUT', `${w.prefix}/settings/regulator`, manager, SETTINGS)).status).toBe(403);
    });

    it('learners CSV: queued -> ready, BOM, chosen fields, formula cells neutralised, phone and numbers intact', async () => {
      const { s } = server();
      const w = await world(form);
      const q = await s.call('POST', `${w.prefix}/exports`, w.key, {
        type: 'learners',
        format: 'csv',
        fields: [
          'id_number',
          'alternate_id',
          'first_name',
          'middle_name',
          'last_name',
          'mobile',
          'job_title',
          'department',
          'programme',
          'status',
        ],
        filters: { programmeId: w.programmeId },
      });
      expect(q.status, JSON.stringify(q.body)).toBe(202);
      expect(q.body.status).toBe('queued');
      const done = await finished(w.prefix, w.key, q.body.id);
      expect(done).toMatchObject({ status: 'ready', rowCount: 3, format: 'csv' });
      const csv = await download(w.prefix, w.key, q.body.id);
      expect(csv.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf]))).toBe(true);
      expect(csv.length).toBe(done.size);
      const rows = parse(csv, { bom: true, columns: true }) as Record<string, string>[];
      expect(rows[0]).toMatchObject({
        first_name: "'=1+1",
        middle_name: "'+SUM(1)",
        last_name: "'@x",
        mobile: '+27831234567',
        job_title: '-12.5',
        status: 'enrolled',
      });
      expect(rows[1]).toMatchObject({ first_name: 'Zoë', last_name: "O'Neil", department: "'-2+3" });
      expect(rows[2]).toMatchObject({ id_number: '', alternate_id: expect.stringMatching(/^FN/) });
      const events = await s.storage.db?.all<{ type: string; data: string }>(
        `SELECT type, data FROM outbox_events WHERE type IN ('export.ready', 'export.completed') AND data LIKE ?`,
        [`%${q.body.id}%`],
      );
      expect(events?.map((e) => e.type).sort()).toEqual(['export.completed', 'export.ready']);
      expect(JSON.parse(events![0]!.data).downloadUrl).toContain('/files/exports/');
    });

    it('an unknown field, a bad status or an unknown programme is invalid input naming it; nothing is queued', async () => {
      const { s } = server();
      const w = await world(form);
      const bad = await s.call('POST', `${w.prefix}/exports`, w.key, {
        type: 'learners',
        fields: ['id_number', 'shoe_size'],
      });
      expect(bad.status).toBe(form.invalidStatus);
      expect(form.fields(bad.body)).toContain('fields');
      expect(JSON.stringify(bad.body)).toContain('shoe_size');
      const st = await s.call('POST', `${w.prefix}/exports`, w.key, {
        type: 'assessments',
        filters: { status: 'done' },
      });
      expect(form.fields(st.body)).toContain('filters.status');
      const pr = await s.call('POST', `${w.prefix}/exports`, w.key, {
        type: 'enrolments',
        filters: { programmeId: 'prg_nope' },
      });
      expect(form.fields(pr.body)).toContain('filters.programmeId');
      const fmt = await s.call('POST', `${w.prefix}/exports`, w.key, { type: 'full', format: 'csv' });
      expect(form.fields(fmt.body)).toContain('format');
      expect((await s.call('GET', `${w.prefix}/exports`, w.key)).body.data).toEqual([]);
    });

    it("another tenant's export is 404, its download too", async () => {
      const { s } = server();
      const w = await world(form);
      const other = await world(form);
      const q = await s.call('POST', `${w.prefix}/exports`, w.key, { type: 'enrolments' });
      await finished(w.prefix, w.key, q.body.id);
      expect((await s.call('GET', `${other.prefix}/exports/${q.body.id}`, other.key)).status).toBe(404);
      expect((await s.call('GET', `${other.prefix}/exports/${q.body.id}/download`, other.key)).status).toBe(404);
    });

    it('QCTO01 dry run answers the readiness report (200); a real run leaves out the learner with findings', async () => {
      const { s } = server();
      const w = await world(form);
      const none = await s.call('POST', `${w.prefix}/exports/qcto01`, w.key, { dryRun: true });
      expect(none.status).toBe(200);
      expect(none.body.findings.map((f: { field: string }) => f.field)).toContain('settings.sdpCode');
      await s.call('PUT', `${w.prefix}/settings/regulator`, w.key, SETTINGS);
      const dry = await s.call('POST', `${w.prefix}/exports/qcto01`, w.key, {
        dryRun: true,
        programmeId: w.programmeId,
      });
      expect(dry.body).toMatchObject({ dryRun: true, type: 'qcto01', ready: 2, leftOut: 1, records: 2 });
      expect(dry.body.findings).toEqual([
        expect.objectContaining({ learnerId: w.learners[0].id, field: 'lastName', reason: 'invalid_characters' }),
        expect.objectContaining({ learnerId: w.learners[0].id, field: 'firstName', reason: 'invalid_characters' }),
        expect.objectContaining({ learnerId: w.learners[0].id, field: 'middleName', reason: 'invalid_characters' }),
      ]);
      const real = await s.call('POST', `${w.prefix}/exports/qcto01`, w.key, {});
      expect(real.status).toBe(202);
      const done = await finished(w.prefix, w.key, real.body.id);
      expect(done).toMatchObject({
        status: 'ready',
        rowCount: 2,
        fileName: 'QCTO01-SDP0012345          20260601.txt',
      });
      expect(done.readiness).toMatchObject({ ready: 2, leftOut: 1 });
      const txt = (await download(w.prefix, w.key, real.body.id)).toString('latin1');
      const lines = txt.split('\r\n');
      expect(lines.pop()).toBe('');
      expect(lines.map((l) => l.length)).toEqual([671, 671]);
      expect(lines[0]!.slice(142, 168).trimEnd()).toBe('Zoe');
      expect(lines[1]!.slice(55, 58)).toBe('527');
      const q2 = await s.call('POST', `${w.prefix}/exports/qcto02`, w.key, {});
      const done2 = await finished(w.prefix, w.key, q2.body.id);
      expect(done2).toMatchObject({ status: 'ready', rowCount: 6 });
      const lines2 = (await download(w.prefix, w.key, q2.body.id)).toString('latin1').split('\r\n').filter(Boolean);
      expect(lines2.every((l) => l.length === 213 && l.slice(138, 141) === '01 ')).toBe(true);
    });
  });
});
