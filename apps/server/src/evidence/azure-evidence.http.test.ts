import { BlobServiceClient } from '@azure/storage-blob';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAzurite, type RunningAzurite } from '@fundi/adapters/testing';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import { multipartInOrder, type Part } from '../testing/multipart-parts.js';
import { enrolledLearner } from '../testing/training-fixtures.js';

const SECRET = 'AZURE-PORTFOLIO-PLAINTEXT-MARKER';
const PDF = Buffer.concat([
  Buffer.from('%PDF-1.7\n'),
  Buffer.from(`${SECRET}\n`.repeat(20_000)),
  Buffer.from('%%EOF\n'),
]);

/** Evidence in Azure Blob storage (Azurite on 127.0.0.1): the container holds only ciphertext. */
describe('evidence on Azure Blob storage', () => {
  let azurite: RunningAzurite;
  let s: TestServer;
  const container = 'fundi-evidence-test';

  beforeAll(async () => {
    azurite = await startAzurite();
    s = await startTestServer('sqlite', {
      fileStore: { kind: 'azure', connectionString: azurite.connectionString, container },
    });
  }, 60_000);
  afterAll(async () => {
    await s?.close();
    await azurite?.stop();
  });

  it('uploads and downloads through the API; a scan of every blob finds no plaintext of the file', async () => {
    const admin = (await s.tenant('az')).key;
    const { learnerId } = await enrolledLearner(s, admin, '/api/v1', {
      code: 'P-AZ',
      idNumber: '9001049818080',
      modules: ['KM-01'],
    });
    const grant = await s.call('POST', '/api/v1/evidence/upload', admin, {
      learnerId,
      moduleId: 'KM-01',
      evidenceType: 'portfolio',
      filename: 'portfolio.pdf',
      size: PDF.length,
    });
    expect(grant.status).toBe(201);
    const put = await fetch(grant.body.uploadUrl, { method: 'PUT', body: PDF });
    expect(put.status).toBe(201);

    const download = await s.call('GET', `/api/v1/evidence/${grant.body.evidenceId}/download`, admin);
    const bytes = Buffer.from(await (await fetch(download.body.url)).arrayBuffer());
    expect(bytes.equals(PDF)).toBe(true);
    const range = await fetch(download.body.url, { headers: { range: 'bytes=9-40' } });
    expect(range.status).toBe(206);
    expect(Buffer.from(await range.arrayBuffer()).equals(PDF.subarray(9, 41))).toBe(true);

    const blobs = BlobServiceClient.fromConnectionString(azurite.connectionString).getContainerClient(container);
    let seen = 0;
    for await (const b of blobs.listBlobsFlat()) {
      const stored = await blobs.getBlobClient(b.name).downloadToBuffer();
      expect(stored.subarray(0, 4).toString()).toBe('FNDE');
      expect(stored.includes(Buffer.from(SECRET))).toBe(false);
      expect(stored.includes(Buffer.from('%PDF'))).toBe(false);
      seen++;
    }
    expect(seen).toBe(1);
  }, 60_000);

  it('a multipart upload with the file before its fields is stored; with a bad field after it, no blob is left', async () => {
    const key = (await s.tenant('az-order')).key;
    const { learnerId } = await enrolledLearner(s, key, '/api/v1', {
      code: 'P-AZO',
      idNumber: '9001049818080',
      modules: ['KM-01'],
    });
    const blobs = BlobServiceClient.fromConnectionString(azurite.connectionString).getContainerClient(container);
    const count = async () => {
      let n = 0;
      for await (const _ of blobs.listBlobsFlat()) n++;
      return n;
    };
    const send = (fields: Record<string, string>) => {
      const parts: Part[] = [{ name: 'file', filename: 'late.pdf', type: 'application/pdf', data: PDF }];
      for (const [name, value] of Object.entries(fields)) parts.push({ name, value });
      const m = multipartInOrder(parts);
      return s.call('POST', '/v1/tenants/az-order/evidence', key, m.body, { 'content-type': m.type });
    };
    const before = await count();
    const ok = await send({ learnerId, moduleId: 'KM-01', evidenceType: 'portfolio' });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ learnerId, moduleId: 'KM-01', filename: 'late.pdf', size: PDF.length });
    expect(await count()).toBe(before + 1);
    const bad = await send({ learnerId: 'lrn_nobody', moduleId: 'KM-01', evidenceType: 'portfolio' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.field).toBe('learnerId');
    expect(await count()).toBe(before + 1);
  }, 60_000);
});
