import { createHmac } from 'node:crypto';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  evidenceMemory,
  exportMemory,
  FixedClock,
  learnerMemory,
  memoryStorage,
  MemoryFileStore,
  platformMemory,
  tenantMemory,
  trainingMemory,
} from '@fundi/fakes';
import { aLearner, aTenant } from '@fundi/domain/testing';
import { EncryptedFileVault, MasterKeyring } from '../files/encrypted-vault.js';
import type { FileVault } from '../files/file-vault.js';
import { ExportService } from './export-service.js';

const signer = {
  sign: (p: string, purpose: string) =>
    `${Buffer.from(p).toString('base64url')}.${createHmac('sha256', 'k').update(`${purpose}|${p}`).digest('base64url')}`,
  verify: (t: string, purpose: string) => {
    const [b, sig] = t.split('.');
    const p = Buffer.from(b ?? '', 'base64url').toString();
    return sig === createHmac('sha256', 'k').update(`${purpose}|${p}`).digest('base64url') ? p : null;
  },
};

async function world(files?: FileVault, publicUrl = 'https://fundi.example') {
  const clock = new FixedClock(new Date('2026-06-01T08:00:00.000Z'));
  const m = memoryStorage([platformMemory, tenantMemory, learnerMemory, trainingMemory, evidenceMemory, exportMemory]);
  const repos = m.repositories();
  const t = aTenant();
  await repos.tenants.insert(t);
  for (let i = 0; i < 3; i++) await repos.learners.insert(aLearner({ tenantId: t.id, firstName: `=cmd${i}` }));
  const vault = files ?? new EncryptedFileVault(new MemoryFileStore(), new MasterKeyring([Buffer.alloc(32, 3)]));
  const service = new ExportService({
    repos,
    uow: m.uow,
    clock,
    files: vault,
    signer,
    zip: () => Readable.from([]),
    settings: { publicUrl, retentionDays: 7 },
  });
  const actor = { tenantId: t.id, id: 'key_1', role: 'admin' as const, scopes: [] };
  const store = m.store as unknown as { tables: { outbox: { type: string; data: { downloadUrl?: string } }[] } };
  return { service, actor, store, clock, vault };
}

const ctx = (attempt = 1) => ({ attempt, signal: new AbortController().signal });

describe('ExportService over the in-memory fakes', () => {
  it('runs a queued export to ready once: a second run records nothing more', async () => {
    const w = await world();
    const q = await w.service.request(w.actor, { type: 'learners', fields: ['first_name'] });
    expect(q.status).toBe('queued');
    await w.service.run(w.actor.tenantId, q.id, ctx());
    await w.service.run(w.actor.tenantId, q.id, ctx(2));
    const done = await w.service.get(w.actor, q.id);
    expect(done).toMatchObject({ status: 'ready', rowCount: 3, expiresAt: '2026-06-08T08:00:00.000Z' });
    const types = w.store.tables.outbox.map((e) => e.type).filter((t) => t.startsWith('export.'));
    expect(types).toEqual(['export.ready', 'export.completed']);
    const grant = await w.service.downloadUrl(w.actor, q.id);
    expect(grant.url).toMatch(/^https:\/\/fundi\.example\/api\/v1\/files\/exports\//);
    const f = await w.service.openDownload(grant.url.split('/').pop()!, null);
    const chunks: Buffer[] = [];
    for await (const c of await f.open()) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks).toString('utf8')).toBe("\uFEFFfirst_name\r\n'=cmd0\r\n'=cmd1\r\n'=cmd2\r\n");
  });

  it('a failing export is retried, then failed with its error on the last attempt, and never announced', async () => {
    const broken: FileVault = {
      store: async () => {
        throw new Error('disk full');
      },
      open: async () => Readable.from([]),
      remove: async () => {},
      rewrap: async () => false,
    };
    const w = await world(broken);
    const q = await w.service.request(w.actor, { type: 'learners' });
    await expect(w.service.run(w.actor.tenantId, q.id, ctx(1))).rejects.toThrow('disk full');
    expect((await w.service.get(w.actor, q.id)).status).toBe('processing');
    await w.service.run(w.actor.tenantId, q.id, ctx(3));
    expect(await w.service.get(w.actor, q.id)).toMatchObject({ status: 'failed', error: 'disk full' });
    await expect(w.service.downloadUrl(w.actor, q.id)).rejects.toMatchObject({ code: 'export_not_ready' });
    expect(w.store.tables.outbox.filter((e) => e.type.startsWith('export.'))).toEqual([]);
  });

  it("the event's download URL: the public URL, else the origin the export was requested at", async () => {
    const urls = async (publicUrl: string, origin?: string) => {
      const w = await world(undefined, publicUrl);
      const q = await w.service.request(w.actor, { type: 'learners' }, origin);
      await w.service.run(w.actor.tenantId, q.id, ctx(), origin);
      const found = w.store.tables.outbox.filter((e) => e.type.startsWith('export.')).map((e) => e.data.downloadUrl);
      expect(found).toHaveLength(2);
      return found;
    };
    const file = /\/api\/v1\/files\/exports\/[^/]+$/;
    for (const url of await urls('https://fundi.example', 'http://127.0.0.1:3917'))
      expect(url).toMatch(new RegExp(`^https://fundi\\.example${file.source}`));
    for (const url of await urls('', 'http://localhost:3000'))
      expect(url).toMatch(new RegExp(`^http://localhost:3000${file.source}`));
  });

  it('settings are admin only', async () => {
    const w = await world();
    const manager = { ...w.actor, role: 'manager' as const };
    await expect(w.service.getSettings(manager)).rejects.toMatchObject({ kind: 'forbidden' });
    await expect(w.service.putSettings(manager, {})).rejects.toMatchObject({ kind: 'forbidden' });
  });
});
