import { expect, it, vi } from 'vitest';
import { aLearnerInput } from '@fundi/domain/testing';
import { workplaceProgramme } from '../logbooks/logbook-fixture.js';
import { idNumberFor, settled, upload } from '../testing/import-fixtures.js';
import { A, B, describeImportSuite } from './imports-http-fixture.js';

const HEADER =
  'id_number,alternate_id,alternate_id_type,module_code,date,hours,activity,workplace,supervisor_name,supervisor_email,supervisor_mobile';

vi.setConfig({ testTimeout: 90_000 });

/** Logbook files: learners by ID number or alternative ID, the API's rules per row, drafts written once. */
describeImportSuite('imports over HTTP: logbook entries', (world) => {
  async function setUp(code: string, n: number) {
    const { s, admin } = world();
    const p = await s.call('POST', `${A}/programmes`, admin, workplaceProgramme(code));
    expect(p.status, JSON.stringify(p.body)).toBe(201);
    const local = await s.call('POST', `${A}/learners`, admin, aLearnerInput({ idNumber: idNumberFor(n) }));
    expect(local.status, JSON.stringify(local.body)).toBe(201);
    const foreign = await s.call(
      'POST',
      `${A}/learners`,
      admin,
      aLearnerInput({
        idNumber: undefined,
        alternateId: `LB${n}`,
        alternateIdType: 'passport',
        dateOfBirth: '1994-07-12',
        gender: 'F',
        nationalityCode: 'ZIM',
        email: `foreign${n}@example.com`,
      }),
    );
    expect(foreign.status, JSON.stringify(foreign.body)).toBe(201);
    for (const l of [local.body.id, foreign.body.id]) {
      const e = await s.call('POST', `${A}/enrolments`, admin, {
        learnerId: l,
        programmeCode: code,
        startDate: '2026-01-10',
      });
      expect(e.status, JSON.stringify(e.body)).toBe(201);
    }
    return { s, admin, local: local.body.id as string, foreign: foreign.body.id as string };
  }

  it('dry run reports each bad row by its column, confirm writes drafts, a second file of the same rows writes none', async () => {
    const { s, admin, local, foreign } = await setUp('P-LBI1', 700);
    const id = idNumberFor(700);
    const csv = [
      HEADER,
      `${id},,,WM-01,2026-03-02,8,Installed conduit,Ubuntu Electrical,Sipho Khumalo,sipho@site.example,`,
      `${id},,,WM-01,2026-03-03,"7,5",Pulled cable,Ubuntu Electrical,Sipho Khumalo,,082 555 0101`,
      `,LB700,passport,WM-01,2026-03-02,6,Fitted sockets,Ubuntu Electrical,Thandi Dube,thandi@site.example,`,
      `${id},,,KM-01,2026-03-04,8,Read the manual,Ubuntu Electrical,Sipho Khumalo,sipho@site.example,`,
      `${id},,,WM-01,2026-03-05,25,Too long a day,Ubuntu Electrical,Sipho Khumalo,sipho@site.example,`,
      `${id},,,WM-01,2026-03-06,8,No way to reach,Ubuntu Electrical,Sipho Khumalo,,`,
      `,LB999,passport,WM-01,2026-03-02,6,Nobody,Ubuntu Electrical,Thandi Dube,thandi@site.example,`,
      `${id},,,WM-01,2026-03-02,8,installed  CONDUIT,Ubuntu Electrical,Sipho Khumalo,sipho@site.example,`,
    ].join('\n');
    const r = await upload(s, admin, B, 'logbook', csv);
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    const checked = await settled(s, admin, B, r.body.id, ['validated']);
    expect(checked).toMatchObject({ totalRows: 8, validRows: 3 });
    expect(checked.errors.map((x: { row: number; field: string }) => [x.row, x.field])).toEqual([
      [5, 'module_code'],
      [6, 'hours'],
      [7, 'supervisor_name'],
      [8, 'alternate_id'],
      [9, 'activity'],
    ]);
    // Nothing written by the dry run.
    expect((await s.call('GET', `${A}/logbook-entries?learnerId=${local}`, admin)).body.data).toEqual([]);

    const confirmed = await s.call('POST', `${B}/imports/${r.body.id}/confirm`, admin);
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(202);
    expect(await settled(s, admin, B, r.body.id, ['completed'])).toMatchObject({ importedRows: 3 });
    const mine = (await s.call('GET', `${A}/logbook-entries?learnerId=${local}`, admin)).body.data as {
      date: string;
      hours: number;
      status: string;
      supervisor: { mobile: string | null };
    }[];
    expect(mine.map((e) => [e.date, e.hours, e.status])).toEqual([
      ['2026-03-02', 8, 'draft'],
      ['2026-03-03', 7.5, 'draft'],
    ]);
    expect(mine[1]!.supervisor.mobile).toBe('+27825550101');
    const theirs = (await s.call('GET', `${A}/logbook-entries?learnerId=${foreign}`, admin)).body.data;
    expect(theirs).toMatchObject([{ date: '2026-03-02', hours: 6, activity: 'Fitted sockets', status: 'draft' }]);
    const hours = await s.call('GET', `${A}/learners/${local}/logbook-hours`, admin);
    expect(hours.body.data).toEqual([{ moduleCode: 'WM-01', logged: 15.5, signed: 0, required: 16, ready: false }]);

    // The same file again: every entry is there already, so there is nothing to confirm.
    const again = await upload(s, admin, B, 'logbook', csv, { dryRun: false });
    const done = await settled(s, admin, B, again.body.id, ['validated']);
    expect(done).toMatchObject({ totalRows: 8, validRows: 0, importedRows: 0 });
    expect(done.errors.filter((x: { field: string }) => x.field === 'activity')).toHaveLength(4);
    expect((await s.call('GET', `${A}/logbook-entries?learnerId=${local}`, admin)).body.data).toHaveLength(2);
  });

  it('serves a template with every column and its example row', async () => {
    const { s, admin } = world();
    const t = await s.call('GET', `${A}/imports/templates/logbook`, admin);
    expect(t.status).toBe(200);
    const [header, example] = String(t.body)
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    expect(header).toBe(
      'id_number,learner_id,alternate_id,alternate_id_type,module_code,date,hours,activity,workplace,supervisor_name,supervisor_email,supervisor_mobile,enrolment_id',
    );
    expect(example).toContain('WM-01');
  });
});
