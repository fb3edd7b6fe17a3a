import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { describeEvidenceSuite, filesUnder, multipart, PDF, PNG, SECRET } from './evidence-http-fixture.js';

/** Evidence uploads (Form B multipart, Form A signed upload URLs), content typing, reviews and versions. */
describeEvidenceSuite('evidence over HTTP: uploads, reviews and versions', (world) => {
  it('Form B multipart upload: sniffed type, version 1, event, and only ciphertext on disk', async () => {
    const { s, admin, learnerId, upload } = world();
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
    const { s, admin, learnerId, upload } = world();
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
    const { admin, other, learnerId, upload } = world();
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
    const { s, admin, learnerId, clock } = world();
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
    expect(grant.headers.get('location')).toBe(`/api/v1/evidence/${grant.body.evidenceId}`);
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
    expect(ok.headers.get('location')).toBe(`/api/v1/evidence/${grant.body.evidenceId}`);
    expect((await s.call('GET', ok.headers.get('location')!, admin)).body.id).toBe(grant.body.evidenceId);
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
      expect(expired.body.error.code).toBe('signed_url_expired');
    } finally {
      clock.advance(-3601_000);
    }
  });

  it('two PUTs racing on one upload URL: one is stored, the other refused, and the stored bytes are intact', async () => {
    const { s, admin, learnerId } = world();
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
    const { s, admin, learnerId, upload } = world();
    const first = await upload(
      admin,
      '/api/v1',
      { learnerId, moduleId: 'KM-01', evidenceType: 'logbook' },
      { name: 'log-v1.pdf', data: PDF },
    );
    const id = first.body.id as string;
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

  it('asks for a revision without feedback too, in both forms (feedback is optional)', async () => {
    const { s, admin, learnerId, upload } = world();
    for (const prefix of ['/api/v1', '/api/v1/tenants/evi'] as const) {
      const made = await upload(
        admin,
        '/api/v1',
        { learnerId, moduleId: 'KM-01', evidenceType: 'logbook' },
        { name: 'log.pdf', data: PDF },
      );
      const asked = await s.call('PATCH', `${prefix}/evidence/${made.body.id}`, admin, {
        status: 'revision_requested',
      });
      expect(asked.status).toBe(200);
      expect(asked.body).toMatchObject({ status: 'revision_requested', feedback: null, version: 1 });
    }
  });
});
