import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachStorage, POSTGRES_TEST_URL } from '@fundi/adapters/testing';
import { idNumberFor } from '@fundi/domain/testing';
import { startTestServer, type TestServer } from '@fundi/server/testing';
import { multipart } from '../evidence/evidence-http-fixture.js';
import { settled, upload } from '../testing/import-fixtures.js';
import { programmeBody } from '../testing/training-fixtures.js';

const ID_NUMBER = idNumberFor(7_341);
/** Every text field of the learner carries a marker no other data of the test holds. */
const LEARNER: Record<string, string> = {
  first_name: 'Qzxfirstname',
  middle_name: 'Qzxmiddlename',
  last_name: 'Qzxlastname',
  id_number: ID_NUMBER,
  email: 'qzxemail@example.org',
  mobile: '0829183746',
  phone: '0119283746',
  home_address_line1: 'Qzxhomeone Street',
  home_address_line2: 'Qzxhometwo',
  home_address_line3: 'Qzxhomethree',
  home_address_postal_code: '2001',
  postal_address_line1: 'Qzxpostone Box',
  postal_address_line2: 'Qzxposttwo',
  postal_address_line3: 'Qzxpostthree',
  postal_address_postal_code: '2002',
  employer: 'Qzxemployer',
  employee_ref: 'QZXREF77',
  department: 'Qzxdepartment',
  job_title: 'Qzxjobtitle',
};
const HR_UPDATE = { employeeId: 'QZXREF77', jobTitle: 'Qzxhrjobtitle', department: 'Qzxhrdepartment' };
const EVIDENCE_NAME = 'qzxevidencefile.pdf';
const EVIDENCE_CONTENT = 'QZXPORTFOLIOCONTENT';
/** A signed upload URL asked for and never used: its ticket keeps the file name. */
const TICKET_NAME = 'qzxticketfile.pdf';
/** The markers, and the digits of the numbers as any spelling stores them (`+27829183746`, `0829183746`). */
const MARKERS = [
  ...['first_name', 'middle_name', 'last_name', 'employer', 'employee_ref', 'department', 'job_title'].map(
    (k) => LEARNER[k]!,
  ),
  'qzxemail',
  '829183746',
  '119283746',
  ID_NUMBER,
  'Qzxhomeone',
  'Qzxhometwo',
  'Qzxhomethree',
  'Qzxpostone',
  'Qzxposttwo',
  'Qzxpostthree',
  HR_UPDATE.jobTitle,
  HR_UPDATE.department,
  'qzxevidencefile',
  EVIDENCE_CONTENT,
  'qzxticketfile',
];
/** The jobs an erasure leads to: each capability's part, and the scrub of the store's files. */
const ERASURE_JOBS = [
  'evidence.erase_learner',
  'notifications.erase_learner',
  'exports.erase_learner',
  'imports.erase_learner',
  'learners.scrub_after_erasure',
];

async function until<T>(what: string, check: () => Promise<T | null | undefined | false>, ms = 90_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((ok) => setTimeout(ok, 50));
  }
}

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

/** Which markers `bytes` holds, in any letter case (as ASCII/UTF-8 bytes, as a file holds them). */
const markersIn = (bytes: Buffer | string) => {
  const text = (typeof bytes === 'string' ? bytes : bytes.toString('latin1')).toLowerCase();
  return MARKERS.filter((m) => text.includes(m.toLowerCase()));
};

/**
 * A POPIA erasure reaches every copy: a learner imported with a marker in every text field, with evidence, mail to
 * the learner and to the assessors (outbox folder), HR updates and exports made before the erasure. After the
 * erasure's jobs, no file under the data directory (the database and its WAL, the file store, the outbox folder)
 * and no row of the schema (pg_dump) holds a marker, and the exports made before answer as purged.
 */
describeEachStorage(
  'a learner erasure reaches every copy (server + worker, data directory and pg_dump)',
  (_get, kind) => {
    let s: TestServer;
    let dataDir: string;
    beforeAll(async () => {
      dataDir = mkdtempSync(join(tmpdir(), 'fundi-erasure-data-'));
      s = await startTestServer(kind, {
        worker: {},
        fileStore: { kind: 'local', dir: join(dataDir, 'files') },
        notifications: { channels: { outboxFolder: join(dataDir, 'outbox') } },
      });
    });
    afterAll(async () => {
      await s?.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    /** Every file a deployment keeps: the data directory, and SQLite's database directory (db, -wal, -shm). */
    const everyFile = () => {
      const target = s.storage.target!;
      const dirs = [dataDir, ...(target.kind === 'sqlite' ? [dirname(target.filename)] : [])];
      return dirs.flatMap(filesUnder);
    };
    const markersOnDisk = () => everyFile().flatMap((f) => markersIn(readFileSync(f)).map((m) => `${m} in ${f}`));
    const pgDump = () => {
      const target = s.storage.target!;
      if (target.kind !== 'postgres') return '';
      const bin = readdirSync('/usr/lib/postgresql').map((v) => `/usr/lib/postgresql/${v}/bin/pg_dump`)[0]!;
      return execFileSync(bin, ['--dbname', POSTGRES_TEST_URL, '-n', target.searchPath!], {
        encoding: 'utf8',
        maxBuffer: 256 * 1024 * 1024,
      });
    };

    it('leaves no marker in any file of the data directory nor in the schema, and purges older exports', async () => {
      const { key } = await s.tenant('copies');
      const A = '/api/v1';
      const jobsOf = () =>
        s.storage.db!.all<{ kind: string; done_at: string | null; last_error: string | null }>(
          `SELECT kind, done_at, last_error FROM jobs WHERE kind IN (${ERASURE_JOBS.map(() => '?').join(', ')})`,
          ERASURE_JOBS,
        );

      // An assessor, told of new evidence.
      const assessor = await s.call('POST', `${A}/users`, key, {
        name: 'Ayanda Assessor',
        email: 'assessor@example.org',
        role: 'assessor',
      });
      expect(assessor.status).toBe(201);

      // The learner, made by an import.
      const csv = `${Object.keys(LEARNER).join(',')}\n${Object.values(LEARNER).join(',')}\n`;
      const imp = await upload(s, key, A, 'learners', csv, { dryRun: false });
      expect(imp.status).toBe(202);
      expect(await settled(s, key, A, imp.body.id, ['completed', 'failed'])).toMatchObject({
        status: 'completed',
        importedRows: 1,
      });
      const found = await s.call('GET', `${A}/learners?search=${ID_NUMBER}`, key);
      const learnerId = found.body.data[0].id as string;
      expect(found.body.data[0]).toMatchObject({ firstName: LEARNER.first_name, employeeRef: 'QZXREF77' });

      // Enrolled, with evidence (the assessor hears of it).
      expect((await s.call('POST', `${A}/programmes`, key, programmeBody('P-ERASE'))).status).toBe(201);
      const enrolment = await s.call('POST', `${A}/enrolments`, key, {
        learnerId,
        programmeCode: 'P-ERASE',
        startDate: '2026-01-10',
      });
      expect(enrolment.status).toBe(201);
      const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.from(`${EVIDENCE_CONTENT}\n`.repeat(200))]);
      const m = multipart(
        { learnerId, moduleId: 'KM-01', evidenceType: 'portfolio' },
        { name: EVIDENCE_NAME, data: pdf },
      );
      const evidence = await s.call('POST', `${A}/evidence`, key, m.body, { 'content-type': m.type });
      expect(evidence.status).toBe(201);
      const grant = await s.call('POST', `${A}/evidence/upload`, key, {
        learnerId,
        moduleId: 'PM-01',
        evidenceType: 'assignment',
        filename: TICKET_NAME,
        contentType: 'application/pdf',
        size: 1000,
      });
      expect(grant.status).toBe(201);

      // HR updates the employee.
      expect(
        (
          await s.call('PUT', `${A}/hr-sync`, key, {
            enabled: true,
            authentication: { type: 'api_key', headerName: 'X-API-Key' },
          })
        ).status,
      ).toBe(200);
      const hrKey = (await s.call('POST', `${A}/hr-sync/rotate-key`, key)).body.key as string;
      const hr = await s.call(
        'POST',
        `${A}/tenants/copies/webhooks/hr-sync`,
        undefined,
        {
          event: 'employee.updated',
          data: HR_UPDATE,
        },
        { 'X-API-Key': hrKey },
      );
      expect(hr.status, JSON.stringify(hr.body)).toBe(200);
      expect(hr.body).toEqual({ learnerId });

      // The welcome mail to the learner and the new-evidence mail to the assessor, in the outbox folder.
      const sent = async (recipientId: string, template: string) => {
        const r = await s.call('GET', `${A}/notifications?recipientId=${recipientId}&template=${template}`, key);
        return r.body.data.some((n: { status: string }) => n.status === 'sent');
      };
      // A message sent through the API to the assessor names the learner only in what the caller wrote.
      const byApi = await s.call('POST', `${A}/notifications`, key, {
        recipientId: assessor.body.id,
        channel: 'email',
        template: 'new_evidence',
        variables: {
          'learner.firstName': LEARNER.first_name,
          'learner.lastName': LEARNER.last_name,
          'evidence.type': 'portfolio',
          'module.name': 'Module KM-01',
          'programme.name': 'Programme P-ERASE',
          actionUrl: 'https://fundi.example/dashboard/evidence',
        },
      });
      expect(byApi.status, JSON.stringify(byApi.body)).toBe(202);
      await until('the welcome mail', () => sent(learnerId, 'welcome'));
      await until('the new-evidence mail', () => sent(assessor.body.id, 'new_evidence'));
      await until('the API mail', async () => {
        const r = await s.call('GET', `${A}/notifications/${byApi.body.id}`, key);
        return r.body.status === 'sent';
      });
      const outbox = join(dataDir, 'outbox');
      const aboutLearner = () => readdirSync(outbox).filter((n) => n.split('.').includes(learnerId));
      expect(aboutLearner()).toHaveLength(2);
      for (const n of readdirSync(outbox)) expect(markersIn(n), n).toEqual([]);

      // Exports made before the erasure: every kind that holds learners.
      const exports: string[] = [];
      for (const type of ['learners', 'full', 'qcto01']) {
        const q = await s.call('POST', `${A}/exports`, key, { type });
        expect(q.status).toBe(202);
        exports.push(q.body.id);
      }
      for (const id of exports)
        await until(
          `export ${id}`,
          async () => (await s.call('GET', `${A}/exports/${id}`, key)).body.status === 'ready',
        );
      const beforeDisk = markersOnDisk();
      // The test can fail: before the erasure the markers are there to be found.
      expect(beforeDisk.some((x) => x.includes('/outbox/'))).toBe(true);
      if (kind === 'sqlite') expect(beforeDisk.some((x) => x.includes('.sqlite'))).toBe(true);
      else expect(markersIn(pgDump()).length).toBeGreaterThan(10);
      const storedFiles = filesUnder(join(dataDir, 'files'));
      expect(storedFiles.some((f) => f.includes('/exports/'))).toBe(true);
      expect(storedFiles.some((f) => f.includes('/imports/'))).toBe(true);
      expect(storedFiles.some((f) => f.includes('/evidence/'))).toBe(true);

      expect((await s.call('DELETE', `${A}/learners/${learnerId}`, key)).status).toBe(204);
      const erasedAt = Date.now();

      // The erasure's jobs, each capability's and the scrubs after them, run to the end without an error.
      const jobs = await until('the erasure jobs', async () => {
        const rows = await jobsOf();
        const kinds = new Set(rows.map((r) => r.kind));
        return ERASURE_JOBS.every((k) => kinds.has(k)) && rows.every((r) => r.done_at) && rows;
      });
      expect(jobs.filter((j) => j.last_error)).toEqual([]);
      process.stdout.write(`[erasure ${kind}] jobs done ${Date.now() - erasedAt} ms after the DELETE\n`);

      // Exports made before answer as purged; their files are gone with the import file and the evidence.
      for (const id of exports) {
        const e = await s.call('GET', `${A}/exports/${id}`, key);
        expect(e.body).toMatchObject({ status: 'ready', purgeReason: 'learner_erased' });
        expect(e.body.purgedAt).not.toBeNull();
        const d = await s.call('GET', `${A}/exports/${id}/download`, key);
        expect(d.status).toBe(409);
        expect(JSON.stringify(d.body)).toContain('purged');
      }
      expect(filesUnder(join(dataDir, 'files'))).toEqual([]);
      expect(aboutLearner()).toEqual([]);
      // Left: the assessor's invitation. The API's message named the learner in its content: found by that, it went.
      const left = readdirSync(outbox).filter((n) => n.endsWith('.eml'));
      expect(left).toHaveLength(1);
      expect(readFileSync(join(outbox, left[0]!), 'utf8')).toContain('To: assessor@example.org');
      expect(left[0]).not.toContain(byApi.body.id);

      // Nothing of the learner in any file, byte for byte, nor in any row.
      expect(markersOnDisk()).toEqual([]);
      if (kind === 'postgres') expect(markersIn(pgDump())).toEqual([]);
    }, 180_000);
  },
  ['sqlite', 'postgres'],
);
