import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { useCasesOf } from '@fundi/adapters';
import { describeEachStorage } from '@fundi/adapters/testing';
import { idNumberFor } from '@fundi/domain/testing';
import { FixedClock } from '@fundi/fakes';
import { exportsCapability } from '../capabilities/index.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import { FORMS, type FormUnderTest } from '../testing/http-forms.js';
import { programmeBody } from '../testing/training-fixtures.js';
import { unzip } from '../testing/unzip.js';

const SETTINGS = {
  sdpCode: 'SDP0012345',
  assessmentPartnerCode: 'AQP-0099',
  assessmentCentreCode: 'AC-7788',
  readinessTypeId: '4',
  employmentStatusDefault: '03',
  achievementTypeId: '01',
  entryRequirementStatus: '01',
  flcStatus: '06',
  statementOfResultsStatus: '02',
};

/** Every QCTO01 field a learner needs, so it is ready. */
const READY = {
  title: 'Mr',
  equityCode: 'BA',
  nationalityCode: 'SA',
  homeLanguageCode: 'Zul',
  citizenResidentStatusCode: 'SA',
  socioeconomicStatusCode: '01',
  disabilityStatusCode: 'N',
  immigrantStatus: '03',
  homeAddress: { line1: '12 Vilakazi Street', line3: 'Soweto', postalCode: '1804' },
  provinceCode: '7',
  statssaAreaCode: '798',
  popiActAgree: true,
  popiActDate: '2026-01-15',
};

const prefixOf = (form: FormUnderTest, slug: string) => form.learners(slug).replace(/\/learners$/, '');

describeEachStorage(
  'exports over HTTP',
  (_get, kind) => {
    let s: TestServer;
    const clock = new FixedClock(new Date('2026-06-01T08:00:00.000Z'));
    let n = 0;
    beforeAll(async () => {
      s = await startTestServer(kind, { clock, worker: {} });
    });
    afterAll(() => s?.close());

    async function finished(prefix: string, key: string, id: string) {
      for (let i = 0; i < 400; i++) {
        const r = await s.call('GET', `${prefix}/exports/${id}`, key);
        expect(r.status).toBe(200);
        if (r.body.status === 'ready' || r.body.status === 'failed') return r.body;
        await new Promise((res) => setTimeout(res, 25));
      }
      throw new Error('export did not finish');
    }

    async function download(prefix: string, key: string, id: string): Promise<Buffer> {
      const g = await s.call('GET', `${prefix}/exports/${id}/download`, key);
      expect(g.status, JSON.stringify(g.body)).toBe(200);
      const res = await fetch(g.body.url);
      expect(res.status).toBe(200);
      return Buffer.from(await res.arrayBuffer());
    }

    async function world(form: FormUnderTest) {
      const slug = `exp-${kind}-${++n}`;
      const key = (await s.tenant(slug)).key;
      const prefix = prefixOf(form, slug);
      const code = `P-EX${n}`;
      const programme = await s.call('POST', `${prefix}/programmes`, key, programmeBody(code));
      const learners = [];
      const bodies = [
        { firstName: '=1+1', middleName: '+SUM(1)', lastName: '@x', jobTitle: '-12.5', mobile: '+27831234567' },
        { firstName: 'Zoë', lastName: "O'Neil", department: '-2+3' },
        {
          firstName: 'Tendai',
          lastName: 'Moyo',
          idNumber: undefined,
          alternateId: `FN${n}1`,
          alternateIdType: 'passport',
          dateOfBirth: '1995-03-02',
          gender: 'M',
          nationalityCode: 'ZIM',
        },
      ];
      for (const [i, b] of bodies.entries()) {
        const r = await s.call('POST', `${prefix}/learners`, key, {
          idNumber: idNumberFor(n * 10 + i),
          ...READY,
          ...b,
        });
        expect(r.status, JSON.stringify(r.body)).toBe(201);
        learners.push(r.body);
        const e = await s.call('POST', `${prefix}/enrolments`, key, {
          learnerId: r.body.id,
          programmeCode: code,
          startDate: '2026-02-01',
          expectedEndDate: '2026-11-30',
        });
        expect(e.status).toBe(201);
      }
      return { slug, key, prefix, programmeId: programme.body.id as string, learners };
    }

    describe.each(FORMS.map((f) => [f.name, f] as const))('%s', (_name, form) => {
      it('regulator settings: admin only, replaced whole, codes checked', async () => {
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
        const w = await world(form);
        const other = await world(form);
        const q = await s.call('POST', `${w.prefix}/exports`, w.key, { type: 'enrolments' });
        await finished(w.prefix, w.key, q.body.id);
        expect((await s.call('GET', `${other.prefix}/exports/${q.body.id}`, other.key)).status).toBe(404);
        expect((await s.call('GET', `${other.prefix}/exports/${q.body.id}/download`, other.key)).status).toBe(404);
      });

      it('QCTO01 dry run answers the readiness report (200); a real run leaves out the learner with findings', async () => {
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

    it('full: a ZIP of the four CSVs, parsed back', async () => {
      const w = await world(FORMS[0]!);
      const q = await s.call('POST', `${w.prefix}/exports`, w.key, { type: 'full' });
      const done = await finished(w.prefix, w.key, q.body.id);
      expect(done).toMatchObject({ status: 'ready', format: 'zip', rowCount: 6 });
      const files = await unzip(await download(w.prefix, w.key, q.body.id));
      expect([...files.keys()]).toEqual(['learners.csv', 'enrolments.csv', 'assessments.csv', 'evidence.csv']);
      const learners = parse(files.get('learners.csv')!, { bom: true, columns: true }) as Record<string, string>[];
      expect(learners.map((l) => l.id)).toEqual(w.learners.map((l) => l.id));
      expect(parse(files.get('enrolments.csv')!, { bom: true, columns: true })).toHaveLength(3);
      expect(parse(files.get('assessments.csv')!, { bom: true, columns: true })).toHaveLength(0);
      expect(files.get('evidence.csv')!.toString('utf8')).toMatch(/^\uFEFFid,learner_id,/);
    });

    it('atr and wsp: summary and learner detail, unknowns counted', async () => {
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
      const w = await world(FORMS[0]!);
      const bare = await s.call('POST', `${w.prefix}/learners`, w.key, {
        firstName: 'No',
        lastName: 'Codes',
        idNumber: idNumberFor(n * 10 + 9),
      });
      await s.call('POST', `${w.prefix}/enrolments`, w.key, {
        learnerId: bare.body.id,
        programmeCode: `P-EX${n}`,
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

    it('download URLs: expired and altered ones are refused with the signed-URL codes; purged after 7 days', async () => {
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
      const purged = await useCasesOf(s.container, exportsCapability).exports.purgeExpired();
      expect(purged).toBeGreaterThanOrEqual(1);
      const after = await s.call('GET', `${w.prefix}/exports/${q.body.id}/download`, w.key);
      expect(after.status).toBe(409);
      expect((await s.call('GET', `${w.prefix}/exports/${q.body.id}`, w.key)).body.purgedAt).not.toBeNull();
      clock.set('2026-06-01T08:00:00.000Z');
    });
  },
  ['sqlite', 'postgres'],
);
