import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { MemoryFileStore } from '@fundi/memory';
import { CHUNK, EncryptedFileVault, HEADER, MasterKeyring } from './encrypted-vault.js';
import { KIND_LIMITS } from './sniff.js';

const MASTER = Buffer.alloc(32, 3);
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4e70000000049454e44ae426082',
  'hex',
);
const PDF_HEAD = Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n', 'latin1');

async function bytes(s: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of s) chunks.push(Buffer.from(c as Uint8Array));
  return Buffer.concat(chunks);
}

/** A PDF of exactly `size` bytes: a real header, then filler. */
function pdf(size: number): Buffer {
  const b = Buffer.alloc(size, 0x20);
  PDF_HEAD.copy(b, 0, 0, Math.min(size, PDF_HEAD.length));
  return b;
}

/** A stream of `size` bytes starting with `head`, generated chunk by chunk. */
function stream(head: Buffer, size: number): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= size) return void this.push(null);
      const n = Math.min(64 * 1024, size - sent);
      const c = Buffer.alloc(n, 0x41);
      if (sent < head.length) head.copy(c, 0, sent, Math.min(head.length, sent + n));
      sent += n;
      this.push(c);
    },
  });
}

function vault(keys: Buffer[] = [MASTER], store = new MemoryFileStore()) {
  return { store, v: new EncryptedFileVault(store, new MasterKeyring(keys)) };
}

describe('encrypted file vault', () => {
  it("stores the service's own output with a known type: not sniffed, no kind limit, empty allowed", async () => {
    const { v } = vault();
    const known = { contentType: 'text/plain', kind: 'document' as const };
    const empty = await v.store('k/empty', Readable.from([]), { as: known });
    expect(empty).toMatchObject({ size: 0, contentType: 'text/plain' });
    expect((await bytes(await v.open('k/empty'))).length).toBe(0);
    const big = 26 * 1024 * 1024;
    expect((await v.store('k/big', stream(Buffer.from('x'), big), { as: known })).size).toBe(big);
    await expect(v.store('k/big2', stream(Buffer.from('x'), big))).rejects.toMatchObject({ code: 'payload_too_large' });
  });

  it('round-trips every boundary size, and stores only ciphertext', async () => {
    const { store, v } = vault();
    for (const size of [1, 100, CHUNK - 1, CHUNK, CHUNK + 1, 3 * CHUNK, 3 * 1024 * 1024 + 17]) {
      const plain = Buffer.concat([PDF_HEAD, randomBytes(Math.max(0, size - PDF_HEAD.length))]).subarray(0, size);
      const stored = await v.store(`k/${size}`, Readable.from([plain]));
      expect(stored.size, String(size)).toBe(size);
      expect(stored.sha256).toBe(createHash('sha256').update(plain).digest('hex'));
      expect((await bytes(await v.open(`k/${size}`))).equals(plain), String(size)).toBe(true);
      const raw = store.objects.get(`k/${size}`)!;
      expect(raw.length).toBe(HEADER + size + 16 * (Math.floor(size / CHUNK) + 1));
      if (size >= 64) expect(raw.includes(plain.subarray(size - 48, size - 16))).toBe(false);
    }
  });

  it('serves ranges across chunk boundaries, decrypting only the chunks they touch', async () => {
    const { v } = vault();
    const plain = Buffer.concat([PDF_HEAD, randomBytes(3 * CHUNK + 500)]);
    await v.store('k/r', Readable.from([plain]));
    for (const [start, end] of [
      [0, 99],
      [CHUNK - 10, CHUNK + 10],
      [CHUNK, 2 * CHUNK - 1],
      [plain.length - 20, plain.length - 1],
      [5, 5],
      [100, plain.length + 50],
    ] as const) {
      const got = await bytes(await v.open('k/r', { start, end }));
      expect(got.equals(plain.subarray(start, Math.min(end, plain.length - 1) + 1)), `${start}-${end}`).toBe(true);
    }
  });

  it('never serves a flipped byte: the chunk fails before any of its plaintext is passed on', async () => {
    const { store, v } = vault();
    const plain = Buffer.concat([PDF_HEAD, randomBytes(2 * CHUNK)]);
    await v.store('k/f', Readable.from([plain]));
    const raw = store.objects.get('k/f')!;
    raw[HEADER + CHUNK + 16 + 100]! ^= 1;
    const got: Buffer[] = [];
    const s = await v.open('k/f');
    await expect(
      (async () => {
        for await (const c of s) got.push(c as Buffer);
      })(),
    ).rejects.toThrow(/chunk 1 was altered/);
    // Whatever was passed on before the failure is verified plaintext of chunk 0, nothing of chunk 1.
    const passed = Buffer.concat(got);
    expect(passed.length).toBeLessThanOrEqual(CHUNK);
    expect(passed.equals(plain.subarray(0, passed.length))).toBe(true);
  });

  it('detects truncation, a wrong master key, and re-wraps under a new master key', async () => {
    const { store, v } = vault();
    const plain = Buffer.concat([PDF_HEAD, randomBytes(CHUNK + 10)]);
    await v.store('k/t', Readable.from([plain]));
    const whole = store.objects.get('k/t')!;
    store.objects.set('k/t', whole.subarray(0, HEADER + CHUNK + 16));
    await expect(bytes(await v.open('k/t'))).rejects.toThrow(/failed verification/);
    store.objects.set('k/t', whole);
    await expect(new EncryptedFileVault(store, new MasterKeyring([Buffer.alloc(32, 9)])).open('k/t')).rejects.toThrow(
      /is not configured/,
    );
    const rotated = new EncryptedFileVault(store, new MasterKeyring([Buffer.alloc(32, 9), MASTER]));
    expect(await rotated.rewrap('k/t')).toBe(true);
    expect(await rotated.rewrap('k/t')).toBe(false);
    const onlyNew = new EncryptedFileVault(store, new MasterKeyring([Buffer.alloc(32, 9)]));
    expect((await bytes(await onlyNew.open('k/t'))).equals(plain)).toBe(true);
  });

  it('types files by their bytes: a PNG named .pdf is an image, executables and unknown binaries are refused', async () => {
    const { v, store } = vault();
    expect(await v.store('k/png', Readable.from([PNG]))).toMatchObject({ contentType: 'image/png', kind: 'image' });
    const elf = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(200)]);
    await expect(v.store('k/elf', Readable.from([elf]))).rejects.toMatchObject({ code: 'unsupported_media_type' });
    const mz = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(62), Buffer.from('PE\0\0'), Buffer.alloc(300, 1)]);
    await expect(v.store('k/mz', Readable.from([mz]))).rejects.toMatchObject({ code: 'unsupported_media_type' });
    await expect(
      v.store('k/bin', Readable.from([Buffer.from([0, 1, 2, 3, 250, 251, 252, 0, 0])])),
    ).rejects.toMatchObject({ code: 'unsupported_media_type' });
    expect(await v.store('k/csv', Readable.from([Buffer.from('name,id\r\nThandi,1\r\nSipho,2\r\n')]))).toMatchObject({
      contentType: 'text/csv',
    });
    expect(
      await v.store('k/txt', Readable.from([Buffer.from('Observed on site; signed by the supervisor.')])),
    ).toMatchObject({ contentType: 'text/plain' });
    expect([...store.objects.keys()].sort()).toEqual(['k/csv', 'k/png', 'k/txt']);
  });

  it('takes each kind exactly at its limit and refuses one byte more, keeping nothing', async () => {
    const { v, store } = vault();
    const cases = [
      ['document', PDF_HEAD],
      ['image', PNG],
    ] as const;
    for (const [kind, head] of cases) {
      const limit = KIND_LIMITS[kind];
      expect((await v.store(`k/${kind}-ok`, stream(head, limit))).size, kind).toBe(limit);
      await expect(v.store(`k/${kind}-big`, stream(head, limit + 1)), kind).rejects.toMatchObject({
        code: 'payload_too_large',
      });
      expect(store.objects.has(`k/${kind}-big`)).toBe(false);
    }
    await expect(v.store('k/cap', stream(PDF_HEAD, 1001), { maxBytes: 1000 })).rejects.toMatchObject({
      code: 'payload_too_large',
    });
    await expect(v.store('k/declared', Readable.from([pdf(500)]), { expectSize: 501 })).rejects.toMatchObject({
      code: 'size_mismatch',
    });
    expect(store.objects.has('k/declared')).toBe(false);
  }, 60_000);
});
