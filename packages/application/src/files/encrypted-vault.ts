import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DomainError, type FileStore } from '@fundi/domain';
import { KIND_LIMITS, SNIFF_BYTES, sniff } from './sniff.js';
import type { FileVault, StoreOptions, StoredFile } from './file-vault.js';

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
const TAG = 16;
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

function chunkAad(index: number, last: boolean): Buffer {
  const aad = Buffer.alloc(5);
  aad.writeUInt32BE(index, 0);
  aad[4] = last ? 1 : 0;
  return aad;
}

function chunkNonce(prefix: Buffer, index: number): Buffer {
  const n = Buffer.alloc(12);
  prefix.copy(n, 0);
  n.writeUInt32BE(index, 8);
  return n;
}

function makeHeader(master: MasterKey, dataKey: Buffer, prefix: Buffer): Buffer {
  const nonce = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', master.key, nonce);
  c.setAAD(master.id);
  const wrapped = Buffer.concat([c.update(dataKey), c.final()]);
  return Buffer.concat([MAGIC, Buffer.from([1]), master.id, nonce, wrapped, c.getAuthTag(), prefix]);
}

const corrupt = (why: string) => new Error(`stored file failed verification: ${why}`);

function openHeader(ring: MasterKeyring, h: Buffer): { dataKey: Buffer; prefix: Buffer } {
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

/** Encrypts a plaintext stream into chunks; counts, hashes and limits the plaintext on the way. */
class Encrypt extends Transform {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private index = 0;
  private headerSent = false;
  readonly hash = createHash('sha256');
  size = 0;

  constructor(
    private readonly header: Buffer,
    private readonly dataKey: Buffer,
    private readonly prefix: Buffer,
    private readonly limit: () => number,
  ) {
    super();
  }

  private seal(plain: Buffer, last: boolean): Buffer {
    const c = createCipheriv('aes-256-gcm', this.dataKey, chunkNonce(this.prefix, this.index));
    c.setAAD(chunkAad(this.index, last));
    this.index++;
    return Buffer.concat([c.update(plain), c.final(), c.getAuthTag()]);
  }

  override _transform(chunk: Buffer, _e: BufferEncoding, done: TransformCallback): void {
    this.size += chunk.length;
    if (this.size > this.limit())
      return done(
        new DomainError('invalid', 'payload_too_large', `The file exceeds the limit of ${this.limit()} bytes`, [], {
          maxBytes: this.limit(),
        }),
      );
    this.hash.update(chunk);
    if (!this.headerSent) {
      this.headerSent = true;
      this.push(this.header);
    }
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    // Full chunks go out at once; the rest (maybe nothing) is sealed as the last chunk at the end.
    if (this.pendingBytes >= CHUNK) {
      const all = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending, this.pendingBytes);
      let at = 0;
      while (all.length - at >= CHUNK) {
        this.push(this.seal(all.subarray(at, at + CHUNK), false));
        at += CHUNK;
      }
      const rest = all.subarray(at);
      this.pending = rest.length ? [rest] : [];
      this.pendingBytes = rest.length;
    }
    done();
  }

  override _flush(done: TransformCallback): void {
    if (!this.headerSent) this.push(this.header);
    this.push(this.seal(Buffer.concat(this.pending), true));
    done();
  }
}

/**
 * Decrypts the chunks of a stream that starts at chunk `first`. `finalIndex` is the file's final chunk (sealed as
 * last); `expectFinal` says whether the stream reaches it. Emits only verified plaintext, cut to the range.
 */
class Decrypt extends Transform {
  private buf: Buffer[] = [];
  private bufBytes = 0;
  private index: number;

  constructor(
    private readonly dataKey: Buffer,
    private readonly prefix: Buffer,
    first: number,
    private readonly finalIndex: number,
    private readonly expectFinal: boolean,
    private readonly cut: { skip: number; take: number },
  ) {
    super();
    this.index = first;
  }

  private open(sealed: Buffer, last: boolean): Buffer {
    const d = createDecipheriv('aes-256-gcm', this.dataKey, chunkNonce(this.prefix, this.index));
    d.setAAD(chunkAad(this.index, last));
    d.setAuthTag(sealed.subarray(sealed.length - TAG));
    this.index++;
    try {
      return Buffer.concat([d.update(sealed.subarray(0, sealed.length - TAG)), d.final()]);
    } catch {
      throw corrupt(`chunk ${this.index - 1} was altered`);
    }
  }

  private deliver(plain: Buffer): void {
    let p = plain;
    if (this.cut.skip > 0) {
      const n = Math.min(this.cut.skip, p.length);
      p = p.subarray(n);
      this.cut.skip -= n;
    }
    if (p.length > this.cut.take) p = p.subarray(0, this.cut.take);
    this.cut.take -= p.length;
    if (p.length) this.push(p);
  }

  override _transform(chunk: Buffer, _e: BufferEncoding, done: TransformCallback): void {
    this.buf.push(chunk);
    this.bufBytes += chunk.length;
    if (this.bufBytes < CHUNK + TAG || this.index >= this.finalIndex) return done();
    try {
      // One copy of what arrived, then whole sealed chunks are opened in place.
      const all = this.buf.length === 1 ? this.buf[0]! : Buffer.concat(this.buf, this.bufBytes);
      let at = 0;
      while (all.length - at >= CHUNK + TAG && this.index < this.finalIndex) {
        this.deliver(this.open(all.subarray(at, at + CHUNK + TAG), false));
        at += CHUNK + TAG;
      }
      const rest = all.subarray(at);
      this.buf = rest.length ? [rest] : [];
      this.bufBytes = rest.length;
    } catch (e) {
      return done(e as Error);
    }
    done();
  }

  override _flush(done: TransformCallback): void {
    try {
      const rest = Buffer.concat(this.buf);
      if (this.expectFinal) {
        if (this.index !== this.finalIndex || rest.length < TAG) throw corrupt('truncated');
        this.deliver(this.open(rest, true));
      } else if (rest.length > 0) {
        throw corrupt('a chunk is cut short');
      }
      if (this.cut.take > 0) throw corrupt('shorter than its recorded size');
    } catch (e) {
      return done(e as Error);
    }
    done();
  }
}

/**
 * A whole object read in one pass: the header is taken from the front of the stream, every sealed chunk but the
 * last is opened as it arrives, and what remains at the end is opened as the final chunk. No size is needed, so
 * a whole-file read is one request to the store.
 */
class DecryptWhole extends Transform {
  private pending: Buffer = Buffer.alloc(0);
  private key: { dataKey: Buffer; prefix: Buffer } | null = null;
  private index = 0;

  constructor(private readonly ring: MasterKeyring) {
    super();
  }

  private open(sealed: Buffer, last: boolean): Buffer {
    const { dataKey, prefix } = this.key!;
    const d = createDecipheriv('aes-256-gcm', dataKey, chunkNonce(prefix, this.index));
    d.setAAD(chunkAad(this.index, last));
    d.setAuthTag(sealed.subarray(sealed.length - TAG));
    this.index++;
    try {
      return Buffer.concat([d.update(sealed.subarray(0, sealed.length - TAG)), d.final()]);
    } catch {
      throw corrupt(`chunk ${this.index - 1} was altered`);
    }
  }

  override _transform(chunk: Buffer, _e: BufferEncoding, done: TransformCallback): void {
    let all = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    try {
      if (!this.key) {
        if (all.length < HEADER) {
          this.pending = all;
          return done();
        }
        this.key = openHeader(this.ring, all.subarray(0, HEADER));
        all = all.subarray(HEADER);
      }
      let at = 0;
      // Strictly more than one sealed chunk: the last one is held back until the end, to be opened as final.
      while (all.length - at > CHUNK + TAG) {
        const plain = this.open(all.subarray(at, at + CHUNK + TAG), false);
        if (plain.length) this.push(plain);
        at += CHUNK + TAG;
      }
      this.pending = all.subarray(at);
    } catch (e) {
      return done(e as Error);
    }
    done();
  }

  override _flush(done: TransformCallback): void {
    try {
      if (!this.key || this.pending.length < TAG) throw corrupt('truncated');
      const plain = this.open(this.pending, true);
      if (plain.length) this.push(plain);
    } catch (e) {
      return done(e as Error);
    }
    done();
  }
}

/** Reads the first `n` bytes of a stream and gives back a stream of the whole (nothing is lost). */
async function peek(source: Readable, n: number): Promise<{ head: Buffer; whole: Readable }> {
  const chunks: Buffer[] = [];
  let got = 0;
  const it = source[Symbol.asyncIterator]();
  let done = false;
  while (got < n) {
    const r = await it.next();
    if (r.done) {
      done = true;
      break;
    }
    const b = Buffer.from(r.value as Uint8Array);
    chunks.push(b);
    got += b.length;
  }
  const head = Buffer.concat(chunks);
  async function* rest() {
    yield head;
    if (done) return;
    for (;;) {
      const r = await it.next();
      if (r.done) return;
      yield Buffer.from(r.value as Uint8Array);
    }
  }
  return { head: head.subarray(0, n), whole: Readable.from(rest(), { objectMode: false }) };
}

/** The plaintext size of a stored object of `stored` bytes. */
export function plaintextSize(stored: number): number {
  const body = stored - HEADER;
  if (body < TAG) throw corrupt('too short');
  const chunks = Math.ceil(body / (CHUNK + TAG));
  return body - TAG * chunks;
}

/** Files encrypted with per-file data keys over any `FileStore`, typed by their content. */
export class EncryptedFileVault implements FileVault {
  constructor(
    private readonly files: FileStore,
    private readonly ring: MasterKeyring,
  ) {}

  async store(key: string, source: Readable, o: StoreOptions = {}): Promise<StoredFile> {
    let sniffed: Awaited<ReturnType<typeof sniff>>;
    let whole: Readable;
    try {
      if (o.known) {
        sniffed = o.known;
        whole = source;
      } else {
        const p = await peek(source, SNIFF_BYTES);
        sniffed = await sniff(p.head);
        whole = p.whole;
      }
    } catch (e) {
      source.destroy();
      throw e;
    }
    const limit = Math.min(o.known ? Infinity : KIND_LIMITS[sniffed.kind], o.maxBytes ?? Infinity);
    const dataKey = randomBytes(32);
    const prefix = randomBytes(8);
    const enc = new Encrypt(makeHeader(this.ring.current, dataKey, prefix), dataKey, prefix, () => limit);
    // Failures are read from the promise and `enc.errored`; this listener only keeps an error event from escaping.
    enc.on('error', () => {});
    const failed = (e: unknown) => {
      source.destroy();
      whole.destroy();
      return this.files
        .delete(key)
        .catch(() => {})
        .then(() => {
          throw e;
        });
    };
    try {
      whole.on('error', (e) => enc.destroy(e));
      await this.files.put(key, whole.pipe(enc));
    } catch (e) {
      return failed(
        (e as { code?: string }).code === 'payload_too_large' || e instanceof DomainError
          ? e
          : enc.destroyed && enc.errored
            ? enc.errored
            : e,
      );
    }
    if (enc.errored) return failed(enc.errored);
    if (o.expectSize !== undefined && enc.size !== o.expectSize) {
      return failed(
        DomainError.invalid('file', `has ${enc.size} bytes; the upload declared ${o.expectSize}`, 'size_mismatch'),
      );
    }
    return { size: enc.size, sha256: enc.hash.digest('hex'), contentType: sniffed.contentType, kind: sniffed.kind };
  }

  async open(key: string, range?: { start: number; end: number }): Promise<Readable> {
    if (!range) {
      // The header is checked before the stream is handed out, so a missing master key or a damaged header fails
      // here (an HTTP answer has not started yet), not in the middle of a download.
      const whole = await this.files.get(key);
      openHeader(this.ring, await readHead(whole, HEADER));
      const dec = new DecryptWhole(this.ring);
      whole.on('error', (e) => dec.destroy(e));
      return whole.pipe(dec);
    }
    const stat = await this.files.stat(key);
    if (!stat) throw DomainError.notFound('file', key);
    const header = await readAll(await this.files.get(key, { start: 0, end: HEADER - 1 }));
    const { dataKey, prefix } = openHeader(this.ring, header);
    const size = plaintextSize(stat.size);
    const lastIndex = Math.floor(size / CHUNK);
    const start = range?.start ?? 0;
    const end = range ? Math.min(range.end, size - 1) : size - 1;
    const first = Math.floor(start / CHUNK);
    // Reading through the last byte always includes the final chunk (maybe empty), so a cut-off object fails.
    const last = end >= size - 1 ? lastIndex : Math.floor(end / CHUNK);
    // Through the last chunk needed; when that is the file's final (short) chunk, to the end of the object.
    const from = HEADER + first * (CHUNK + TAG);
    const to = last >= lastIndex ? stat.size - 1 : HEADER + (last + 1) * (CHUNK + TAG) - 1;
    const cipher = await this.files.get(key, { start: from, end: to });
    const cut = { skip: start - first * CHUNK, take: size === 0 ? 0 : end - start + 1 };
    const dec = new Decrypt(dataKey, prefix, first, lastIndex, last >= lastIndex, cut);
    cipher.on('error', (e) => dec.destroy(e));
    return cipher.pipe(dec);
  }

  async remove(key: string): Promise<void> {
    await this.files.delete(key);
  }

  /**
   * Re-wraps the data key under the current master key (after a rotation). The store writes whole objects only,
   * so the object is copied with its new header; the encrypted chunks are copied unchanged, never decrypted.
   */
  async rewrap(key: string): Promise<boolean> {
    const header = await readAll(await this.files.get(key, { start: 0, end: HEADER - 1 }));
    if (header.subarray(5, 13).equals(this.ring.current.id)) return false;
    const { dataKey, prefix } = openHeader(this.ring, header);
    const stat = await this.files.stat(key);
    const body = await this.files.get(key, { start: HEADER, end: stat!.size - 1 });
    const tmp = `${key}.rewrap`;
    async function* all(h: Buffer) {
      yield h;
      for await (const c of body) yield c as Buffer;
    }
    await this.files.put(tmp, Readable.from(all(makeHeader(this.ring.current, dataKey, prefix))));
    await this.files.put(key, await this.files.get(tmp));
    await this.files.delete(tmp);
    return true;
  }
}

/** The first `n` bytes of a stream, put back so the stream still starts with them (no copy of the rest). */
async function readHead(s: Readable, n: number): Promise<Buffer> {
  for (;;) {
    const b = (s.read(n) as Buffer | null) ?? (s.readableEnded ? (s.read() as Buffer | null) : null);
    if (b) {
      s.unshift(b);
      return b.subarray(0, n);
    }
    if (s.readableEnded || s.destroyed) throw corrupt('too short');
    await new Promise<void>((resolve, reject) => {
      const done = () => {
        s.off('readable', done).off('end', done).off('error', fail);
        resolve();
      };
      const fail = (e: Error) => {
        s.off('readable', done).off('end', done).off('error', fail);
        reject(e);
      };
      s.once('readable', done).once('end', done).once('error', fail);
    });
  }
}

async function readAll(s: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of s) chunks.push(Buffer.from(c as Uint8Array));
  return Buffer.concat(chunks);
}
