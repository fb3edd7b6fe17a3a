import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';

/**
 * Envelope encryption above the file store (docs/architecture.md, "Files"). Each object is
 *
 *   header: "FNDE" | version 1 | key id (8) | data-key nonce (12) | wrapped data key (32) | tag (16) | nonce prefix (8)
 *   chunks: AES-256-GCM of 64 KiB of plaintext each, 16-byte tag after each; the last chunk is shorter (maybe empty)
 *
 * A fresh random data key per file is wrapped (AES-256-GCM) by the master key named by the key id, so a new master
 * key can re-wrap data keys. Chunk i uses nonce = prefix | i (4 bytes) and authenticates i and whether it is the
 * last, so reordered, dropped or truncated chunks fail. A chunk's plaintext is passed on only after its tag
 * verified: altered bytes are an error, never served.
 */
export const CHUNK = 64 * 1024;
export const TAG = 16;
const MAGIC = Buffer.from('FNDE');
export const HEADER = 4 + 1 + 8 + 12 + 32 + 16 + 8;

export interface MasterKey {
  id: Buffer;
  key: Buffer;
}

/** Master keys: the current one encrypts; every one listed can decrypt (rotation keeps the old ones a while). */
export class MasterKeyring {
  readonly current: MasterKey;
  private readonly byId = new Map<string, MasterKey>();

  constructor(keys: readonly Buffer[]) {
    if (keys.length === 0) throw new Error('a master key is needed');
    for (const raw of keys) {
      // Files get their own key derived from each master key, never the master key itself.
      const key = createHmac('sha256', raw).update('fundi file encryption v1').digest();
      const id = createHash('sha256').update(key).digest().subarray(0, 8);
      this.byId.set(id.toString('hex'), { id, key });
    }
    this.current = this.byId.get([...this.byId.keys()][0]!)!;
  }

  find(id: Buffer): MasterKey | null {
    return this.byId.get(id.toString('hex')) ?? null;
  }
}

export function chunkAad(index: number, last: boolean): Buffer {
  const aad = Buffer.alloc(5);
  aad.writeUInt32BE(index, 0);
  aad[4] = last ? 1 : 0;
  return aad;
}

export function chunkNonce(prefix: Buffer, index: number): Buffer {
  const n = Buffer.alloc(12);
  prefix.copy(n, 0);
  n.writeUInt32BE(index, 8);
  return n;
}

export function makeHeader(master: MasterKey, dataKey: Buffer, prefix: Buffer): Buffer {
  const nonce = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', master.key, nonce);
  c.setAAD(master.id);
  const wrapped = Buffer.concat([c.update(dataKey), c.final()]);
  return Buffer.concat([MAGIC, Buffer.from([1]), master.id, nonce, wrapped, c.getAuthTag(), prefix]);
}

export const corrupt = (why: string) => new Error(`stored file failed verification: ${why}`);

export function openHeader(ring: MasterKeyring, h: Buffer): { dataKey: Buffer; prefix: Buffer } {
  if (h.length < HEADER || !h.subarray(0, 4).equals(MAGIC) || h[4] !== 1) throw corrupt('not an encrypted Fundi file');
  const id = h.subarray(5, 13);
  const master = ring.find(id);
  if (!master) throw corrupt(`master key ${id.toString('hex')} is not configured`);
  const d = createDecipheriv('aes-256-gcm', master.key, h.subarray(13, 25));
  d.setAAD(id);
  d.setAuthTag(h.subarray(57, 73));
  try {
    const dataKey = Buffer.concat([d.update(h.subarray(25, 57)), d.final()]);
    return { dataKey, prefix: h.subarray(73, 81) };
  } catch {
    throw corrupt('the data key does not open');
  }
}

/** The plaintext size of a stored object of `stored` bytes. */
export function plaintextSize(stored: number): number {
  const body = stored - HEADER;
  if (body < TAG) throw corrupt('too short');
  const chunks = Math.ceil(body / (CHUNK + TAG));
  return body - TAG * chunks;
}
