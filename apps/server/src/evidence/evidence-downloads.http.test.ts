import { expect, it } from 'vitest';
import { unzip } from '../testing/unzip.js';
import { describeEvidenceSuite, PDF, PNG } from './evidence-http-fixture.js';

/** Evidence downloads through signed URLs, bulk ZIP downloads, tenant separation and scopes. */
describeEvidenceSuite('evidence over HTTP: downloads and access', (world) => {
  it('downloads through a signed URL with type, disposition, length, ETag and ranges; refuses altered, expired and foreign URLs', async () => {
    const { s, admin, learnerId, clock, upload } = world();
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
    expect((await s.call('GET', new URL(url).pathname, undefined, undefined, { range: 'bytes=0-9' })).status).toBe(206);
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
      'signed_url_invalid',
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
    const { s, admin, other, learnerId, upload } = world();
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
      (await s.call('POST', '/api/v1/evidence/bulk-download', admin, { evidenceIds: [a.body.id, 'evd_nope'] })).status,
    ).toBe(404);
    expect((await s.call('POST', '/api/v1/evidence/bulk-download', other, { evidenceIds: [a.body.id] })).status).toBe(
      404,
    );
    expect((await s.call('POST', '/api/v1/evidence/bulk-download', admin, { evidenceIds: [] })).status).toBe(422);
    const grant = await s.call('POST', '/api/v1/tenants/evi/evidence/bulk-download', admin, {
      evidenceIds: [b.body.id, a.body.id],
    });
    expect(grant.status).toBe(200);
    expect(grant.body).toMatchObject({ count: 2, contentType: 'application/zip' });
    const zip = await s.call('GET', new URL(grant.body.url).pathname);
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-type')).toBe('application/zip');
    const bytes = Buffer.from(await (await fetch(grant.body.url)).arrayBuffer());
    // `size` is the length of the ZIP served, not of the files in it.
    expect(grant.body.size).toBe(bytes.length);
    const entries = await unzip(bytes);
    expect([...entries.keys()].sort()).toEqual(
      [`${learnerId}/KM-01/${a.body.id}-v1-a.pdf`, `${learnerId}/PM-01/${b.body.id}-v1-b.png`].sort(),
    );
    expect(entries.get(`${learnerId}/KM-01/${a.body.id}-v1-a.pdf`)!.equals(PDF)).toBe(true);
    expect(entries.get(`${learnerId}/PM-01/${b.body.id}-v1-b.png`)!.equals(PNG)).toBe(true);
  });

  it('keeps tenants apart and needs the right scopes', async () => {
    const { s, admin, other, learnerId, upload } = world();
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
    expect((await s.call('PATCH', `/api/v1/evidence/${made.body.id}`, moderator, { status: 'approved' })).status).toBe(
      403,
    );
    const integration = (await s.key('evi', 'integration')).key;
    expect((await s.call('DELETE', `/api/v1/evidence/${made.body.id}`, integration)).status).toBe(403);
  });
});
