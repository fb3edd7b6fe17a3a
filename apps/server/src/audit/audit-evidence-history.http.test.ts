import { expect, it } from 'vitest';
import { describeEvidenceSuite, PDF } from '../evidence/evidence-http-fixture.js';

type Entry = { action: string; learnerId?: string; origin: { via: string; ip: string | null } };

/**
 * What is done to a learner's evidence (upload, download URL, download, review, delete, restore, bundles of their
 * evidence alone) is in their history (`GET /learners/{id}/history`), each entry naming them.
 */
describeEvidenceSuite('audit: evidence entries in the learner’s history', (world) => {
  it('every evidence entry carries the learner and shows in their history', async () => {
    const { s, admin, learnerId, upload } = world();
    const made = await upload(
      admin,
      '/api/v1',
      { learnerId, moduleId: 'KM-01', evidenceType: 'other' },
      { name: 'history.pdf', data: PDF },
    );
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const id = made.body.id as string;
    const grant = await s.call('GET', `/api/v1/evidence/${id}/download`, admin);
    expect(grant.status).toBe(200);
    expect((await fetch(grant.body.url)).status).toBe(200);
    const bundle = await s.call('POST', '/api/v1/evidence/bulk-download', admin, { evidenceIds: [id] });
    expect(bundle.status, JSON.stringify(bundle.body)).toBe(200);
    const zip = await fetch(bundle.body.url);
    expect(zip.status).toBe(200);
    await zip.arrayBuffer();
    expect((await s.call('PATCH', `/api/v1/evidence/${id}`, admin, { status: 'approved' })).status).toBe(200);
    expect((await s.call('DELETE', `/api/v1/evidence/${id}`, admin)).status).toBe(204);
    expect((await s.call('POST', `/api/v1/evidence/${id}/restore`, admin)).status).toBe(200);

    const history = await s.call('GET', `/api/v1/learners/${learnerId}/history?limit=100`, admin);
    expect(history.status).toBe(200);
    const entries = history.body.data as Entry[];
    const mine = entries.filter((e) => e.action.startsWith('evidence.'));
    expect(mine.map((e) => e.action).sort()).toEqual(
      [
        'evidence.bulk_download_url_issued',
        'evidence.bulk_downloaded',
        'evidence.deleted',
        'evidence.download_url_issued',
        'evidence.downloaded',
        'evidence.restored',
        'evidence.reviewed',
        'evidence.uploaded',
      ].sort(),
    );
    for (const e of mine) expect(e.learnerId).toBe(learnerId);
    // A signed URL's use is audited from the address that used it.
    const downloaded = mine.find((e) => e.action === 'evidence.downloaded')!;
    expect(downloaded.origin.ip).toEqual(expect.stringContaining('127.0.0.1'));
  });
});
