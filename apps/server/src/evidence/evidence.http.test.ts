import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { useCasesOf } from '@fundi/adapters';
import { describeEachStorage } from '@fundi/adapters/testing';
import { FixedClock } from '@fundi/fakes';
import { evidenceCapability, tenants } from '../capabilities/index.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import { enrolledLearner as enrolled } from '../testing/training-fixtures.js';

let programmes = 0;
const enrolledLearner = (s: TestServer, key: string, prefix: string, idNumber = '9001049818080') =>
  enrolled(s, key, prefix, { code: `P-EV${++programmes}`, idNumber, modules: ['KM-01', 'PM-01'] });

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4e70000000049454e44ae426082',
  'hex',
);
const SECRET = 'CONFIDENTIAL-PORTFOLIO-MARKER-7731';
const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.from(`${SECRET}\n`.repeat(4000)), Buffer.from('%%EOF\n')]);

function multipart(
  fields: Record<string, string>,
  file?: { name: string; data: Buffer },
): { body: Buffer; type: string } {
  const b = `----fundi${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields))
    parts.push(Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  if (file) {
    parts.push(
      Buffer.from(
        `--${b}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: application/pdf\r\n\r\n`,
      ),
      file.data,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${b}--\r\n`));
  return { body: Buffer.concat(parts), type: `multipart/form-data; boundary=${b}` };
}

/** The entries of a ZIP, by name (yauzl reads it back). */
function unzip(zip: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true }, (err, z) => {
      if (err || !z) return reject(err);
      const out = new Map<string, Buffer>();
      z.on('entry', (entry: yauzl.Entry) => {
        z.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            out.set(entry.fileName, Buffer.concat(chunks));
            z.readEntry();
          });
        });
      });
      z.on('end', () => resolve(out));
      z.readEntry();
    });
  });
}

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

describeEachStorage(
  'evidence over HTTP',
  (_get, kind) => {
    let s: TestServer;
    let admin: string;
    let other: string;
    let learnerId: string;
    const clock = new FixedClock(new Date());

    beforeAll(async () => {
      s = await startTestServer(kind, { clock });
      admin = (await s.tenant('evi')).key;
      other = (await s.tenant('evi-other')).key;
      ({ learnerId } = await enrolledLearner(s, admin, '/api/v1'));
    });
    afterAll(() => s?.close());

    const upload = (
      key: string,
      prefix: string,
      fields: Record<string, string>,
      file?: { name: string; data: Buffer },
    ) => {
      const m = multipart(fields, file);
      return s.call('POST', `${prefix}/evidence`, key, m.body, { 'content-type': m.type });
    };

    it('Form B multipart upload: sniffed type, version 1, event, and only ciphertext on disk', async () => {
      const r = await upload(
        admin,
        '/api/v1/tenants/evi',
        { learnerId, moduleId: 'KM-01', evidenceType: 'portfolio' },
        { name: 'Portfolio é.pdf', data: PDF },
      );
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({
        learnerId,
        moduleId: 'KM-01',
        evidenceType: 'portfolio',
        filename: 'Portfolio é.pdf',
        contentType: 'application/pdf',
        size: PDF.length,
        status: 'submitted',
        version: 1,
      });
      expect(r.headers.get('location')).toBe(`/api/v1/tenants/evi/evidence/${r.body.id}`);
      if (s.filesDir) {
        const files = filesUnder(s.filesDir);
        expect(files.length).toBeGreaterThan(0);
        for (const f of files) expect(readFileSync(f).includes(Buffer.from(SECRET))).toBe(false);
      }
      const events = await s.storage.db?.all<{ type: string }>(
        `SELECT type FROM outbox_events WHERE type = 'evidence.uploaded'`,
      );
      if (events) expect(events.length).toBeGreaterThanOrEqual(1);
    });

    it('types by content: a PNG named .pdf is an image; an executable named .pdf is 415 and leaves nothing', async () => {
      const png = await upload(
        admin,
        '/api/v1',
        { learnerId, moduleId: 'KM-01', evidenceType: 'observation' },
        { name: 'photo.pdf', data: PNG },
      );
      expect(png.status).toBe(201);
      expect(png.body.contentType).toBe('image/png');
      const before = (await s.call('GET', '/api/v1/usage', admin)).body.files;
      const elf = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(500)]);
      const bad = await upload(
        admin,
        '/api/v1',
        { learnerId, moduleId: 'KM-01', evidenceType: 'other' },
        { name: 'cv.pdf', data: elf },
      );
      expect(bad.status).toBe(415);
      expect(bad.body.error.code).toBe('unsupported_media_type');
      const badB = await upload(
        admin,
        '/api/v1/tenants/evi',
        { learnerId, moduleId: 'KM-01', evidenceType: 'other' },
        { name: 'cv.pdf', data: elf },
      );
      expect(badB.body.error.code).toBe('UNSUPPORTED_FILE_TYPE');
      expect((await s.call('GET', '/api/v1/usage', admin)).body.files).toBe(before);
    });

    it("names bad fields, an unknown learner and a module outside the learner's enrolments", async () => {
      const r = await upload(
        admin,
        '/api/v1',
        { learnerId, moduleId: 'NOPE', evidenceType: 'scroll' },
        { name: 'a.pdf', data: PDF },
      );
      expect(r.status).toBe(422);
      expect(r.body.error.details.map((d: { field: string }) => d.field)).toContain('evidenceType');
      expect(
        (
          await upload(
            admin,
            '/api/v1',
            { learnerId, moduleId: 'NOPE', evidenceType: 'other' },
            { name: 'a.pdf', data: PDF },
          )
        ).body.error.details[0].field,
      ).toBe('moduleId');
      expect(
        (
          await upload(
            admin,
            '/api/v1',
            { learnerId: 'lrn_nobody', moduleId: 'KM-01', evidenceType: 'other' },
            { name: 'a.pdf', data: PDF },
          )
        ).body.error.details[0].field,
      ).toBe('learnerId');
      expect(
        (
          await upload(
            other,
            '/api/v1',
            { learnerId, moduleId: 'KM-01', evidenceType: 'other' },
            { name: 'a.pdf', data: PDF },
          )
        ).status,
      ).toBe(422);
    });

    it('Form A: a signed single-use upload URL; wrong size, reuse, alteration and expiry are refused', async () => {
      const grant = await s.call('POST', '/api/v1/evidence/upload', admin, {
        learnerId,
        moduleId: 'KM-01',
        evidenceType: 'assignment',
        filename: 'essay.pdf',
        contentType: 'application/pdf',
        size: PDF.length,
      });
      expect(grant.status).toBe(201);
      expect(grant.body).toMatchObject({ method: 'PUT', version: 1 });
      expect(grant.body.uploadUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1\/files\/uploads\//);
      const path = new URL(grant.body.uploadUrl).pathname;
      const short = await s.call('PUT', path, undefined, PDF.subarray(0, 100));
      expect(short.status).toBe(422);
      expect(short.body.error.code).toBe('validation_error');
      const at = path.length - 30;
      const altered = `${path.slice(0, at)}${path[at] === 'A' ? 'B' : 'A'}${path.slice(at + 1)}`;
      expect((await s.call('PUT', altered, undefined, PDF)).body.error.code).toBe('signed_url_invalid');
      const ok = await s.call('PUT', path, undefined, PDF);
      expect(ok.status).toBe(201);
      expect(ok.body).toMatchObject({ id: grant.body.evidenceId, filename: 'essay.pdf', size: PDF.length });
      const again = await s.call('PUT', path, undefined, PDF);
      expect(again.status).toBe(403);
      expect(again.body.error.code).toBe('signed_url_invalid');
      const late = await s.call('POST', '/api/v1/evidence/upload', admin, {
        learnerId,
        moduleId: 'KM-01',
        evidenceType: 'assignment',
        filename: 'late.pdf',
        size: PDF.length,
      });
      clock.advance(3601_000);
      try {
        const expired = await s.call(
          'PUT',
          `/api/v1/tenants/evi${new URL(late.body.uploadUrl).pathname.slice(7)}`,
          undefined,
          PDF,
        );
        expect(expired.status).toBe(403);
        expect(expired.body.error.code).toBe('SIGNED_URL_EXPIRED');
      } finally {
        clock.advance(-3601_000);
      }
    });

    it('two PUTs racing on one upload URL: one is stored, the other refused, and the stored bytes are intact', async () => {
      const grant = await s.call('POST', '/api/v1/evidence/upload', admin, {
        learnerId,
        moduleId: 'KM-01',
        evidenceType: 'assignment',
        filename: 'race.pdf',
        contentType: 'application/pdf',
        size: PDF.length,
      });
      const path = new URL(grant.body.uploadUrl).pathname;
      // Same size, different bytes: whichever wins, the stored file must be exactly its body.
      const other = Buffer.from(PDF);
      other.write('%PDF-1.7\n%racer\n', 0);
      const [a, b] = await Promise.all([s.call('PUT', path, undefined, PDF), s.call('PUT', path, undefined, other)]);
      // The loser finds the URL used (403) or the record already made by the winner (409), by timing.
      const [won201, lost] = a.status === 201 ? [a, b] : [b, a];
      expect(won201.status).toBe(201);
      expect([403, 409]).toContain(lost.status);
      const won = a.status === 201 ? PDF : other;
      const file = await s.call('GET', `/api/v1/evidence/${grant.body.evidenceId}/download`, admin);
      const got = await fetch(file.body.url as string);
      expect(got.status).toBe(200);
      expect(Buffer.from(await got.arrayBuffer()).equals(won)).toBe(true);
    });

    it('reviews with versions: revision requested, a new version, its own review, and the events', async () => {
      const first = await upload(
        admin,
        '/api/v1',
        { learnerId, moduleId: 'KM-01', evidenceType: 'logbook' },
        { name: 'log-v1.pdf', data: PDF },
      );
      const id = first.body.id as string;
      expect((await s.call('PATCH', `/api/v1/evidence/${id}`, admin, { status: 'revision_requested' })).status).toBe(
        422,
      );
      const asked = await s.call('PATCH', `/api/v1/evidence/${id}`, admin, {
        status: 'revision_requested',
        feedback: 'Add the supervisor signature',
      });
      expect(asked.body).toMatchObject({
        status: 'revision_requested',
        feedback: 'Add the supervisor signature',
        version: 1,
      });
      expect((await s.call('PATCH', `/api/v1/evidence/${id}`, admin, { status: 'approved' })).status).toBe(409);
      const m = multipart({}, { name: 'log-v2.pdf', data: PDF });
      const v2 = await s.call('POST', `/api/v1/tenants/evi/evidence/${id}/versions`, admin, m.body, {
        'content-type': m.type,
      });
      expect(v2.status).toBe(201);
      expect(v2.body).toMatchObject({ version: 2, status: 'submitted', filename: 'log-v2.pdf' });
      expect(
        (await s.call('POST', `/api/v1/evidence/${id}/versions`, admin, m.body, { 'content-type': m.type })).status,
      ).toBe(409);
      expect(
        (await s.call('PATCH', `/api/v1/evidence/${id}`, admin, { status: 'approved', feedback: 'Good' })).body.status,
      ).toBe('approved');
      const versions = await s.call('GET', `/api/v1/evidence/${id}/versions`, admin);
      expect(versions.body.data.map((v: { version: number; status: string }) => [v.version, v.status])).toEqual([
        [1, 'revision_requested'],
        [2, 'approved'],
      ]);
      const list = await s.call(
        'GET',
        `/api/v1/evidence?learnerId=${learnerId}&status=approved&evidenceType=logbook`,
        admin,
      );
      expect(list.body.data.map((e: { id: string }) => e.id)).toEqual([id]);
      const paged = await s.call('GET', `/api/v1/tenants/evi/evidence?limit=1&moduleId=KM-01`, admin);
      expect(paged.body.pagination).toMatchObject({ limit: 1, offset: 0, hasMore: true });
    });

    it('downloads through a signed URL with type, disposition, length, ETag and ranges; refuses altered, expired and foreign URLs', async () => {
      const made = await upload(
        admin,
        '/api/v1',
        { learnerId, moduleId: 'KM-01', evidenceType: 'certificate' },
        { name: 'Sertifikaat — Thandi.pdf', data: PDF },
      );
      const grant = await s.call('GET', `/api/v1/evidence/${made.body.id}/download`, admin);
      expect(grant.body).toMatchObject({
        filename: 'Sertifikaat — Thandi.pdf',
        contentType: 'application/pdf',
        size: PDF.length,
      });
      expect(Date.parse(grant.body.expiresAt) - clock.now().getTime()).toBe(3600_000);
      const url = grant.body.url as string;
      const whole = await fetch(url);
      expect(whole.status).toBe(200);
      expect(whole.headers.get('content-type')).toBe('application/pdf');
      expect(whole.headers.get('content-length')).toBe(String(PDF.length));
      expect(whole.headers.get('content-disposition')).toContain(
        `filename*=UTF-8''${encodeURIComponent('Sertifikaat — Thandi.pdf')}`,
      );
      expect(Buffer.from(await whole.arrayBuffer()).equals(PDF)).toBe(true);
      expect(whole.headers.get('content-disposition')).toMatch(/^attachment;/);
      // `?inline=1` shows a PDF in the page (the dashboard's preview); an unknown value is refused.
      const inline = await s.call('GET', `${new URL(url).pathname}?inline=1`, undefined);
      expect(inline.status).toBe(200);
      expect(inline.headers.get('content-disposition')).toMatch(/^inline;/);
      expect((await fetch(`${url}?inline=yes`)).status).toBe(422);
      // Through the validating client too: the file answer matches the document.
      expect((await s.call('GET', new URL(url).pathname, undefined, undefined, { range: 'bytes=0-9' })).status).toBe(
        206,
      );
      const part = await fetch(url, { headers: { range: 'bytes=0-99' } });
      expect(part.status).toBe(206);
      expect(Buffer.from(await part.arrayBuffer()).equals(PDF.subarray(0, 100))).toBe(true);
      const tail = await fetch(url, { headers: { range: 'bytes=-10' } });
      expect(Buffer.from(await tail.arrayBuffer()).equals(PDF.subarray(PDF.length - 10))).toBe(true);
      expect((await fetch(url, { headers: { range: `bytes=${PDF.length}-` } })).status).toBe(416);
      const path = new URL(url).pathname;
      const token = path.split('/').pop()!;
      const mid = Math.floor(token.length / 3);
      const altered = token.slice(0, mid) + (token[mid] === 'A' ? 'B' : 'A') + token.slice(mid + 1);
      expect((await s.call('GET', path.replace(token, altered))).body.error.code).toBe('signed_url_invalid');
      expect((await s.call('GET', `/api/v1/tenants/evi-other/files/evidence/${token}`)).body.error.code).toBe(
        'SIGNED_URL_INVALID',
      );
      clock.advance(3601_000);
      try {
        expect((await s.call('GET', path)).body.error.code).toBe('signed_url_expired');
      } finally {
        clock.advance(-3601_000);
      }
      const audit = await s.storage.db?.all<{ action: string }>(
        `SELECT action FROM audit_log WHERE resource_id = ? ORDER BY id`,
        [made.body.id],
      );
      if (audit)
        expect(audit.map((a) => a.action)).toEqual(
          expect.arrayContaining(['evidence.download_url_issued', 'evidence.downloaded']),
        );
    });

    it('bulk download: one ZIP of the current versions, streamed; unknown or foreign ids are 404', async () => {
      const a = await upload(
        admin,
        '/api/v1',
        { learnerId, moduleId: 'KM-01', evidenceType: 'other' },
        { name: 'a.pdf', data: PDF },
      );
      const b = await upload(
        admin,
        '/api/v1',
        { learnerId, moduleId: 'PM-01', evidenceType: 'other' },
        { name: 'b.png', data: PNG },
      );
      expect(
        (await s.call('POST', '/api/v1/evidence/bulk-download', admin, { evidenceIds: [a.body.id, 'evd_nope'] }))
          .status,
      ).toBe(404);
      expect((await s.call('POST', '/api/v1/evidence/bulk-download', other, { evidenceIds: [a.body.id] })).status).toBe(
        404,
      );
      expect((await s.call('POST', '/api/v1/evidence/bulk-download', admin, { evidenceIds: [] })).status).toBe(422);
      const grant = await s.call('POST', '/api/v1/tenants/evi/evidence/bulk-download', admin, {
        evidenceIds: [b.body.id, a.body.id],
      });
      expect(grant.status).toBe(200);
      expect(grant.body).toMatchObject({ count: 2, contentType: 'application/zip', size: PDF.length + PNG.length });
      const zip = await s.call('GET', new URL(grant.body.url).pathname);
      expect(zip.status).toBe(200);
      expect(zip.headers.get('content-type')).toBe('application/zip');
      const bytes = Buffer.from(await (await fetch(grant.body.url)).arrayBuffer());
      const entries = await unzip(bytes);
      expect([...entries.keys()].sort()).toEqual(
        [`${learnerId}/KM-01/${a.body.id}-v1-a.pdf`, `${learnerId}/PM-01/${b.body.id}-v1-b.png`].sort(),
      );
      expect(entries.get(`${learnerId}/KM-01/${a.body.id}-v1-a.pdf`)!.equals(PDF)).toBe(true);
      expect(entries.get(`${learnerId}/PM-01/${b.body.id}-v1-b.png`)!.equals(PNG)).toBe(true);
    });

    it('keeps tenants apart and needs the right scopes', async () => {
      const made = await upload(
        admin,
        '/api/v1',
        { learnerId, moduleId: 'KM-01', evidenceType: 'other' },
        { name: 'x.pdf', data: PDF },
      );
      expect((await s.call('GET', `/api/v1/evidence/${made.body.id}`, other)).status).toBe(404);
      expect((await s.call('GET', `/api/v1/evidence/${made.body.id}/download`, other)).status).toBe(404);
      expect((await s.call('GET', `/api/v1/tenants/evi/evidence/${made.body.id}`, other)).status).toBe(403);
      expect((await s.call('GET', `/api/v1/evidence/${made.body.id}`)).status).toBe(401);
      const moderator = (await s.key('evi', 'moderator')).key;
      expect((await s.call('GET', `/api/v1/evidence/${made.body.id}`, moderator)).status).toBe(200);
      expect(
        (await s.call('PATCH', `/api/v1/evidence/${made.body.id}`, moderator, { status: 'approved' })).status,
      ).toBe(403);
      const integration = (await s.key('evi', 'integration')).key;
      expect((await s.call('DELETE', `/api/v1/evidence/${made.body.id}`, integration)).status).toBe(403);
    });

    it('deletes, restores within 30 days, and purges after 30 days', async () => {
      const made = await upload(
        admin,
        '/api/v1',
        { learnerId, moduleId: 'KM-01', evidenceType: 'other' },
        { name: 'gone.pdf', data: PDF },
      );
      const id = made.body.id as string;
      expect((await s.call('DELETE', `/api/v1/evidence/${id}`, admin)).status).toBe(204);
      expect((await s.call('GET', `/api/v1/evidence/${id}`, admin)).status).toBe(404);
      expect((await s.call('POST', `/api/v1/evidence/${id}/restore`, admin)).body.deletedAt).toBeNull();
      expect((await s.call('GET', `/api/v1/evidence/${id}`, admin)).status).toBe(200);
      expect((await s.call('DELETE', `/api/v1/evidence/${id}`, admin)).status).toBe(204);
      const retention = useCasesOf(s.container, evidenceCapability).evidence.retention;
      clock.advance(29 * 86_400_000);
      expect(await retention.purgeDeleted()).toBe(0);
      clock.advance(2 * 86_400_000);
      try {
        expect((await s.call('POST', `/api/v1/evidence/${id}/restore`, admin)).status).toBe(409);
        expect(await retention.purgeDeleted()).toBeGreaterThanOrEqual(1);
        expect((await s.call('POST', `/api/v1/evidence/${id}/restore`, admin)).status).toBe(404);
      } finally {
        clock.advance(-31 * 86_400_000);
      }
    });

    it("purges evidence past the tenant's retention after the enrolment's completion, keeping the audit", async () => {
      const t = await enrolledLearner(s, admin, '/api/v1', '8501015800088');
      for (const code of ['KM-01', 'PM-01']) {
        expect(
          (
            await s.call('POST', '/api/v1/assessments', admin, {
              learnerId: t.learnerId,
              moduleCode: code,
              assessmentType: 'summative',
              outcome: 'C',
              assessmentDate: t.enrolment.startDate,
              enrolmentId: t.enrolment.id,
            })
          ).status,
        ).toBe(201);
      }
      const made = await upload(
        admin,
        '/api/v1',
        { learnerId: t.learnerId, moduleId: 'KM-01', evidenceType: 'portfolio', enrolmentId: t.enrolment.id },
        { name: 'kept.pdf', data: PDF },
      );
      expect(made.status).toBe(201);
      const today = clock.now().toISOString().slice(0, 10);
      expect(
        (await s.call('PATCH', `/api/v1/enrolments/${t.enrolment.id}/status`, admin, { status: 'in_progress' })).status,
      ).toBe(200);
      expect(
        (
          await s.call('PATCH', `/api/v1/enrolments/${t.enrolment.id}/status`, admin, {
            status: 'completed',
            effectiveDate: today,
          })
        ).status,
      ).toBe(200);
      const retention = useCasesOf(s.container, evidenceCapability).evidence.retention;
      await retention.setRetentionYears('evi', 2);
      expect(await retention.retentionYears((await s.call('GET', '/api/v1/me', admin)).body.tenant.id)).toBe(2);
      clock.advance(365 * 86_400_000);
      try {
        expect(await retention.purgePastRetention()).toBe(0);
        clock.advance(366 * 86_400_000);
        expect(await retention.purgePastRetention()).toBe(1);
        expect((await s.call('GET', `/api/v1/evidence/${made.body.id}`, admin)).status).toBe(404);
      } finally {
        clock.advance(-731 * 86_400_000);
      }
      await expect(retention.setRetentionYears('evi', 0)).rejects.toMatchObject({ kind: 'invalid' });
    });

    it("usage counts the requests of all the tenant's keys today; crossing 80% of the quota raises one warning event", async () => {
      const t = await s.tenant('evi-usage');
      const second = await s.key('evi-usage', 'admin');
      const first = (await s.call('GET', '/api/v1/usage', t.key)).body;
      expect(first.requestsToday).toBeGreaterThanOrEqual(1);
      for (let i = 0; i < 5; i++) await s.call('GET', '/api/v1/learners', t.key);
      await s.call('GET', '/api/v1/learners', second.key);
      await s.call('GET', '/api/v1/learners', other);
      const again = await s.call('GET', '/api/v1/tenants/evi-usage/usage', second.key);
      // Five and one learner lists, and this usage call itself; another tenant's request is not counted.
      expect(again.body.requestsToday).toBe(first.requestsToday + 7);

      const { learnerId } = await enrolledLearner(s, t.key, '/api/v1', '8001015009087');
      await useCasesOf(s.container, tenants).reconfigureTenant.execute('evi-usage', {
        overrides: { storageBytes: Math.ceil(PDF.length / 0.85) },
      });
      const up = await upload(
        t.key,
        '/api/v1',
        { learnerId, moduleId: 'KM-01', evidenceType: 'other' },
        { name: 'p.pdf', data: PDF },
      );
      expect(up.status).toBe(201);
      const events = await s.storage.db!.all<{ type: string; data: string }>(
        `SELECT type, data FROM outbox_events WHERE tenant_id = ? AND type = 'tenant.quota_warning'`,
        [t.id],
      );
      expect(events.length).toBe(1);
      const data = typeof events[0]!.data === 'string' ? JSON.parse(events[0]!.data) : events[0]!.data;
      expect(data).toMatchObject({ percent: 80, bytes: PDF.length });
    });

    it('refuses what would pass the storage quota and keeps nothing of it', async () => {
      await useCasesOf(s.container, tenants).reconfigureTenant.execute('evi-other', {
        overrides: { storageBytes: 1000 },
      });
      const t = await enrolledLearner(s, other, '/api/v1');
      const r = await upload(
        other,
        '/api/v1',
        { learnerId: t.learnerId, moduleId: 'KM-01', evidenceType: 'other' },
        { name: 'big.pdf', data: PDF },
      );
      expect(r.status).toBe(403);
      expect(r.body.error.code).toBe('storage_quota_exceeded');
      const usage = await s.call('GET', '/api/v1/usage', other);
      expect(usage.body).toMatchObject({ bytesUsed: 0, quotaBytes: 1000, files: 0 });
      const grant = await s.call('POST', '/api/v1/evidence/upload', other, {
        learnerId: t.learnerId,
        moduleId: 'KM-01',
        evidenceType: 'other',
        filename: 'a.pdf',
        size: 5000,
      });
      expect(grant.body.error.code).toBe('storage_quota_exceeded');
    });
  },
  ['sqlite', 'postgres'],
);

describe('evidence and learner erasure', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer('sqlite', { worker: {} });
  });
  afterAll(() => s?.close());

  it('erasing a learner removes their evidence bytes and records, keeping the audit facts', async () => {
    const key = (await s.tenant('evi-erase')).key;
    const { learnerId } = await enrolledLearner(s, key, '/api/v1');
    const m = multipart({ learnerId, moduleId: 'KM-01', evidenceType: 'portfolio' }, { name: 'mine.pdf', data: PDF });
    const made = await s.call('POST', '/api/v1/evidence', key, m.body, { 'content-type': m.type });
    expect(made.status).toBe(201);
    expect(filesUnder(s.filesDir!).length).toBe(1);
    expect((await s.call('DELETE', `/api/v1/learners/${learnerId}`, key)).status).toBe(204);
    const deadline = Date.now() + 5000;
    const gone = async () =>
      filesUnder(s.filesDir!).length === 0 &&
      (await s.call('GET', `/api/v1/evidence/${made.body.id}`, key)).status === 404;
    while (!(await gone()) && Date.now() < deadline) await new Promise((ok) => setTimeout(ok, 20));
    expect(filesUnder(s.filesDir!)).toEqual([]);
    expect((await s.call('GET', `/api/v1/evidence/${made.body.id}`, key)).status).toBe(404);
    const audit = await s.storage.db!.all<{ action: string }>(`SELECT action FROM audit_log WHERE resource_id = ?`, [
      made.body.id,
    ]);
    expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(['evidence.uploaded', 'evidence.erased']));
  });
});
