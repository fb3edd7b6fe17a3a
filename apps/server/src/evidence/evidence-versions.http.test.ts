import { expect, it } from 'vitest';
import { expectPagedList } from '../testing/list-paging.js';
import { describeEvidenceSuite, multipart, PDF } from './evidence-http-fixture.js';

/** `GET /evidence/{id}/versions` is a list in each form's envelope, paged by version number. */
describeEvidenceSuite('evidence versions over HTTP: a paged list', (world) => {
  /** Evidence with `count` versions, each earlier one sent back for revision. */
  async function evidenceWithVersions(count: number): Promise<string> {
    const { s, admin, learnerId, upload } = world();
    const first = await upload(
      admin,
      '/api/v1/tenants/evi',
      { learnerId, moduleId: 'KM-01', evidenceType: 'logbook' },
      { name: 'log-v1.pdf', data: PDF },
    );
    expect(first.status).toBe(201);
    const id = first.body.id as string;
    for (let v = 2; v <= count; v++) {
      const asked = await s.call('PATCH', `/api/v1/evidence/${id}`, admin, { status: 'revision_requested' });
      expect(asked.status).toBe(200);
      const m = multipart({}, { name: `log-v${v}.pdf`, data: PDF });
      const next = await s.call('POST', `/api/v1/tenants/evi/evidence/${id}/versions`, admin, m.body, {
        'content-type': m.type,
      });
      expect(next.status).toBe(201);
    }
    return id;
  }

  it('answers the envelope in both forms and pages by version, refusing tampered and foreign cursors', async () => {
    const { s, admin, other } = world();
    const id = await evidenceWithVersions(5);
    const otherId = await evidenceWithVersions(3);
    const foreign = [
      (await s.call('GET', `/api/v1/evidence/${otherId}/versions?limit=2`, admin)).body.pagination.nextCursor,
      (await s.call('GET', '/api/v1/evidence?limit=1', admin)).body.pagination.nextCursor,
    ];
    expect(foreign.every((c) => typeof c === 'string')).toBe(true);
    const all = await expectPagedList(
      { s, key: admin, slug: 'evi', path: `/evidence/${id}/versions`, name: (v) => v.version },
      2,
      foreign,
    );
    expect(all).toEqual([1, 2, 3, 4, 5]);

    const whole = await s.call('GET', `/api/v1/evidence/${id}/versions?limit=100`, admin);
    expect(whole.body.data.map((v: { filename: string; status: string }) => [v.filename, v.status])).toEqual([
      ['log-v1.pdf', 'revision_requested'],
      ['log-v2.pdf', 'revision_requested'],
      ['log-v3.pdf', 'revision_requested'],
      ['log-v4.pdf', 'revision_requested'],
      ['log-v5.pdf', 'submitted'],
    ]);
    // Who uploaded is still shown as an actor on every page.
    expect(whole.body.data[0].uploadedBy).toMatchObject({ type: 'api_key', id: expect.any(String) });
    expect((await s.call('GET', `/api/v1/evidence/${id}/versions?limit=2`, other)).status).toBe(404);
    expect((await s.call('GET', `/api/v1/evidence/${id}/versions?limit=0`, admin)).status).toBe(422);
  });
});

describeEvidenceSuite('evidence versions over HTTP: a declared next version', (world) => {
  it('is granted a URL with Location (the evidence) after a revision request, and the PUT makes version 2', async () => {
    const { s, admin, learnerId, upload } = world();
    const first = await upload(
      admin,
      '/api/v1/tenants/evi',
      { learnerId, moduleId: 'KM-01', evidenceType: 'logbook' },
      { name: 'log-v1.pdf', data: PDF },
    );
    const id = first.body.id as string;
    const early = await s.call('POST', `/v1/tenants/evi/evidence/${id}/versions/upload`, admin, {
      filename: 'log-v2.pdf',
      size: PDF.length,
    });
    expect(early.status).toBe(409);
    expect((await s.call('PATCH', `/api/v1/evidence/${id}`, admin, { status: 'revision_requested' })).status).toBe(200);
    const grant = await s.call('POST', `/v1/tenants/evi/evidence/${id}/versions/upload`, admin, {
      filename: 'log-v2.pdf',
      size: PDF.length,
    });
    expect(grant.status).toBe(201);
    expect(grant.body).toMatchObject({ evidenceId: id, version: 2, method: 'PUT' });
    expect(grant.headers.get('location')).toBe(`/v1/tenants/evi/evidence/${id}`);
    const put = await s.call(
      'PUT',
      `/v1/tenants/evi${new URL(grant.body.uploadUrl).pathname.slice(7)}`,
      undefined,
      PDF,
    );
    expect(put.status).toBe(201);
    expect(put.body).toMatchObject({ id, version: 2, status: 'submitted', filename: 'log-v2.pdf' });
    expect(put.headers.get('location')).toBe(`/v1/tenants/evi/evidence/${id}`);
    expect((await s.call('GET', put.headers.get('location')!, admin)).body.version).toBe(2);
  });
});
