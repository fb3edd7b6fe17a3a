import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileStore } from '@fundi/domain';
import { MemoryFileStore } from '@fundi/memory';
import { startAzurite, type RunningAzurite } from '../testing/azurite.js';
import { AzureBlobFileStore } from './azure-blob-file-store.js';
import { LocalDiskFileStore } from './local-disk-file-store.js';

async function bytes(s: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of s) chunks.push(Buffer.from(c as Uint8Array));
  return Buffer.concat(chunks);
}

/** A generated stream of `size` bytes (never held whole), and the digest it will have. */
function generated(size: number): { stream: Readable; sha256: string } {
  const hash = createHash('sha256');
  let left = size;
  let n = 0;
  const make = () => Buffer.alloc(Math.min(64 * 1024, left), n++ % 251);
  const chunks: Buffer[] = [];
  while (left > 0) {
    const c = make();
    hash.update(c);
    left -= c.length;
    if (chunks.length < 1) chunks.push(c);
  }
  left = size;
  n = 0;
  const stream = new Readable({
    read() {
      if (left <= 0) return void this.push(null);
      const c = make();
      left -= c.length;
      this.push(c);
    },
  });
  return { stream, sha256: hash.digest('hex') };
}

const DATA = Buffer.from(Array.from({ length: 5000 }, (_, i) => i % 256));

function contract(name: string, open: () => Promise<{ store: FileStore; close(): Promise<void> }>) {
  describe(`FileStore contract [${name}]`, () => {
    let store: FileStore;
    let close: () => Promise<void>;
    beforeAll(async () => {
      ({ store, close } = await open());
    }, 30_000);
    afterAll(() => close?.());

    it('round-trips bytes, replaces on put, and reports the size', async () => {
      expect(await store.put('t/ten_1/a/b.bin', Readable.from([DATA.subarray(0, 100), DATA.subarray(100)]))).toEqual({
        size: 5000,
      });
      expect((await bytes(await store.get('t/ten_1/a/b.bin'))).equals(DATA)).toBe(true);
      expect(await store.stat('t/ten_1/a/b.bin')).toEqual({ size: 5000 });
      await store.put('t/ten_1/a/b.bin', Readable.from([Buffer.from('short')]));
      expect((await bytes(await store.get('t/ten_1/a/b.bin'))).toString()).toBe('short');
    });

    it('reads byte ranges: start, middle, end, one byte', async () => {
      await store.put('t/ten_1/r.bin', Readable.from([DATA]));
      for (const [start, end] of [
        [0, 99],
        [1234, 2345],
        [4900, 4999],
        [7, 7],
      ] as const) {
        expect(
          (await bytes(await store.get('t/ten_1/r.bin', { start, end }))).equals(DATA.subarray(start, end + 1)),
          `${start}-${end}`,
        ).toBe(true);
      }
    });

    it('deletes idempotently; a missing object is not found', async () => {
      await store.put('t/ten_1/d.bin', Readable.from([DATA]));
      await store.delete('t/ten_1/d.bin');
      await store.delete('t/ten_1/d.bin');
      expect(await store.stat('t/ten_1/d.bin')).toBeNull();
      await expect(store.get('t/ten_1/d.bin')).rejects.toMatchObject({ kind: 'not_found' });
    });

    it('refuses keys that could escape their place', async () => {
      for (const key of ['../x', 't/../../etc/passwd', '/abs', 't//x', 't/./x', '', 't/x y']) {
        await expect(store.put(key, Readable.from([DATA])), key).rejects.toThrow(/not a valid file key/);
      }
    });

    it('a write whose source fails leaves nothing under the key, or the previous object, and the key can be written again', async () => {
      // Past one 4 MB block: the Azure store has staged blocks it never commits.
      const failing = () => {
        let sent = 0;
        return new Readable({
          read() {
            if (sent >= 5 * 1024 * 1024) return void this.destroy(new Error('client went away'));
            sent += 256 * 1024;
            this.push(Buffer.alloc(256 * 1024, 7));
          },
        });
      };
      await expect(store.put('t/ten_1/broken.bin', failing())).rejects.toThrow();
      expect(await store.stat('t/ten_1/broken.bin')).toBeNull();
      await expect(store.get('t/ten_1/broken.bin')).rejects.toMatchObject({ kind: 'not_found' });
      expect(await store.put('t/ten_1/broken.bin', Readable.from([DATA]))).toEqual({ size: 5000 });
      await expect(store.put('t/ten_1/broken.bin', failing())).rejects.toThrow();
      expect((await bytes(await store.get('t/ten_1/broken.bin'))).equals(DATA)).toBe(true);
      expect(await store.removeAbandoned(new Date(Date.now() + 60_000), 100)).toBe(0);
    }, 30_000);

    it('streams 20 MB through without holding it', async () => {
      const g = generated(20 * 1024 * 1024);
      expect(await store.put('t/ten_1/big.bin', g.stream)).toEqual({ size: 20 * 1024 * 1024 });
      const hash = createHash('sha256');
      for await (const c of await store.get('t/ten_1/big.bin')) hash.update(c as Buffer);
      expect(hash.digest('hex')).toBe(g.sha256);
    }, 30_000);
  });
}

contract('memory', async () => ({ store: new MemoryFileStore(), close: async () => {} }));
contract('local disk', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'fundi-files-'));
  return { store: new LocalDiskFileStore(dir), close: async () => rmSync(dir, { recursive: true, force: true }) };
});
contract('Azure Blob (Azurite)', async () => {
  const azurite: RunningAzurite = await startAzurite();
  return { store: new AzureBlobFileStore(azurite.connectionString, 'fundi-test'), close: () => azurite.stop() };
});

describe('LocalDiskFileStore leftovers', () => {
  it("deletes a key with the temporary files a killed write of it left, and nobody else's", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fundi-files-'));
    try {
      const store = new LocalDiskFileStore(dir);
      await store.put('t/ten_1/exports/exp_1', Readable.from([DATA]));
      await store.put('t/ten_1/exports/exp_10', Readable.from([DATA]));
      const folder = join(dir, 't', 'ten_1', 'exports');
      mkdirSync(folder, { recursive: true });
      writeFileSync(join(folder, 'exp_1.0a1b2c3d4e5f.part'), 'cut off');
      writeFileSync(join(folder, 'exp_10.0a1b2c3d4e5f.part'), 'still being written');
      await store.delete('t/ten_1/exports/exp_1');
      expect(readdirSync(folder).sort()).toEqual(['exp_10', 'exp_10.0a1b2c3d4e5f.part']);
      await store.delete('t/ten_1/nothing/here');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
