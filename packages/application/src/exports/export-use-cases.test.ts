import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { aLearner } from '@fundi/domain/testing';
import type { FileVault } from '../files/file-vault.js';
import { exportWorld } from '../testing/export-world.js';

async function world(files?: FileVault, publicUrl = 'https://fundi.example') {
  const w = await exportWorld({ files, publicUrl });
  for (let i = 0; i < 3; i++) await w.repos.learners.insert(aLearner({ tenantId: w.tenant.id, firstName: `=cmd${i}` }));
  return w;
}

const ctx = (attempt = 1) => ({ attempt, signal: new AbortController().signal });

describe('the export use cases over the in-memory fakes', () => {
  it('runs a queued export to ready once: a second run records nothing more', async () => {
    const w = await world();
    const q = await w.exports.request.execute(w.actor, { type: 'learners', fields: ['first_name'] });
    expect(q.status).toBe('queued');
    await w.exports.write.execute(w.actor.tenantId, q.id, ctx());
    await w.exports.write.execute(w.actor.tenantId, q.id, ctx(2));
    const done = await w.exports.get.execute(w.actor, q.id);
    expect(done).toMatchObject({ status: 'ready', rowCount: 3, expiresAt: '2026-06-08T08:00:00.000Z' });
    const types = w.store.tables.outbox.map((e) => e.type).filter((t) => t.startsWith('export.'));
    expect(types).toEqual(['export.ready', 'export.completed']);
    const grant = await w.exports.downloadUrl.execute(w.actor, q.id);
    expect(grant.url).toMatch(/^https:\/\/fundi\.example\/api\/v1\/files\/exports\//);
    const f = await w.exports.openDownload.execute(grant.url.split('/').pop()!, null);
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
    const q = await w.exports.request.execute(w.actor, { type: 'learners' });
    await expect(w.exports.write.execute(w.actor.tenantId, q.id, ctx(1))).rejects.toThrow('disk full');
    expect((await w.exports.get.execute(w.actor, q.id)).status).toBe('processing');
    await w.exports.write.execute(w.actor.tenantId, q.id, ctx(3));
    expect(await w.exports.get.execute(w.actor, q.id)).toMatchObject({ status: 'failed', error: 'disk full' });
    await expect(w.exports.downloadUrl.execute(w.actor, q.id)).rejects.toMatchObject({ code: 'export_not_ready' });
    expect(w.store.tables.outbox.filter((e) => e.type.startsWith('export.'))).toEqual([]);
  });

  it("the event's download URL: the public URL, else the origin the export was requested at", async () => {
    const urls = async (publicUrl: string, origin?: string) => {
      const w = await world(undefined, publicUrl);
      const q = await w.exports.request.execute(w.actor, { type: 'learners' }, origin);
      await w.exports.write.execute(w.actor.tenantId, q.id, ctx(), origin);
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
    await expect(w.exports.getSettings.execute(manager)).rejects.toMatchObject({ kind: 'forbidden' });
    await expect(w.exports.putSettings.execute(manager, {})).rejects.toMatchObject({ kind: 'forbidden' });
  });
});
