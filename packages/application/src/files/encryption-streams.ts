import { createCipheriv, createDecipheriv, createHash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { DomainError } from '@fundi/domain';
import {
  CHUNK,
  chunkAad,
  chunkNonce,
  corrupt,
  HEADER,
  type MasterKeyring,
  openHeader,
  TAG,
} from './encryption-format.js';

/** Encrypts a plaintext stream into chunks; counts, hashes and limits the plaintext on the way. */
export class Encrypt extends Transform {
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
export class Decrypt extends Transform {
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
export class DecryptWhole extends Transform {
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
