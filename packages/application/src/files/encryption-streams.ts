import { createCipheriv, createDecipheriv, createHash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { DomainError } from '@fundi/domain';
import { ByteQueue } from './byte-queue.js';
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

/**
 * Encrypts a plaintext stream into chunks; counts, hashes and limits the plaintext on the way. A chunk is sealed
 * from the pieces as they came (no copy of the plaintext) and its ciphertext and tag are passed on as the cipher
 * gives them (no copy either): each copy of a file's bytes is more memory outside V8's heap, and enough of it starts
 * a full garbage collection (docs/performance.md, "Evidence files").
 */
export class Encrypt extends Transform {
  private readonly pending = new ByteQueue();
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

  /** Seals the next `n` pending bytes as one chunk. */
  private seal(n: number, last: boolean): void {
    const c = createCipheriv('aes-256-gcm', this.dataKey, chunkNonce(this.prefix, this.index));
    c.setAAD(chunkAad(this.index, last));
    this.index++;
    this.pending.take(n, (plain) => {
      const sealed = c.update(plain);
      if (sealed.length) this.push(sealed);
    });
    c.final();
    this.push(c.getAuthTag());
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
    // Full chunks go out at once; the rest (maybe nothing) is sealed as the last chunk at the end.
    while (this.pending.length >= CHUNK) this.seal(CHUNK, false);
    done();
  }

  override _flush(done: TransformCallback): void {
    if (!this.headerSent) this.push(this.header);
    this.seal(this.pending.length, true);
    done();
  }
}

/**
 * Opens the next sealed chunk of `n` bytes (ciphertext, then its tag) from `queue`: its plaintext pieces, given only
 * once the tag verified; nothing of an altered chunk is returned.
 */
function openChunk(
  queue: ByteQueue,
  n: number,
  key: { dataKey: Buffer; prefix: Buffer },
  index: number,
  last: boolean,
): Buffer[] {
  const d = createDecipheriv('aes-256-gcm', key.dataKey, chunkNonce(key.prefix, index));
  d.setAAD(chunkAad(index, last));
  const plain: Buffer[] = [];
  queue.take(n - TAG, (sealed) => {
    const p = d.update(sealed);
    if (p.length) plain.push(p);
  });
  d.setAuthTag(queue.takeBuffer(TAG));
  try {
    d.final();
  } catch {
    throw corrupt(`chunk ${index} was altered`);
  }
  return plain;
}

/**
 * Decrypts the chunks of a stream that starts at chunk `first`. `finalIndex` is the file's final chunk (sealed as
 * last); `expectFinal` says whether the stream reaches it. Emits only verified plaintext, cut to the range.
 */
export class Decrypt extends Transform {
  private readonly queue = new ByteQueue();
  private index: number;
  private readonly key: { dataKey: Buffer; prefix: Buffer };

  constructor(
    dataKey: Buffer,
    prefix: Buffer,
    first: number,
    private readonly finalIndex: number,
    private readonly expectFinal: boolean,
    private readonly cut: { skip: number; take: number },
  ) {
    super();
    this.index = first;
    this.key = { dataKey, prefix };
  }

  private open(n: number, last: boolean): Buffer[] {
    return openChunk(this.queue, n, this.key, this.index++, last);
  }

  private deliver(plain: Buffer[]): void {
    for (let p of plain) {
      if (this.cut.skip > 0) {
        const n = Math.min(this.cut.skip, p.length);
        p = p.subarray(n);
        this.cut.skip -= n;
      }
      if (p.length > this.cut.take) p = p.subarray(0, this.cut.take);
      this.cut.take -= p.length;
      if (p.length) this.push(p);
    }
  }

  override _transform(chunk: Buffer, _e: BufferEncoding, done: TransformCallback): void {
    this.queue.push(chunk);
    try {
      // Whole sealed chunks are opened as they arrive, all but the final one.
      while (this.queue.length >= CHUNK + TAG && this.index < this.finalIndex)
        this.deliver(this.open(CHUNK + TAG, false));
    } catch (e) {
      return done(e as Error);
    }
    done();
  }

  override _flush(done: TransformCallback): void {
    try {
      if (this.expectFinal) {
        if (this.index !== this.finalIndex || this.queue.length < TAG) throw corrupt('truncated');
        this.deliver(this.open(this.queue.length, true));
      } else if (this.queue.length > 0) {
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
  private readonly queue = new ByteQueue();
  private key: { dataKey: Buffer; prefix: Buffer } | null = null;
  private index = 0;

  constructor(private readonly ring: MasterKeyring) {
    super();
  }

  private deliver(plain: Buffer[]): void {
    for (const p of plain) this.push(p);
  }

  override _transform(chunk: Buffer, _e: BufferEncoding, done: TransformCallback): void {
    this.queue.push(chunk);
    try {
      if (!this.key) {
        if (this.queue.length < HEADER) return done();
        this.key = openHeader(this.ring, this.queue.takeBuffer(HEADER));
      }
      // Strictly more than one sealed chunk: the last one is held back until the end, to be opened as final.
      while (this.queue.length > CHUNK + TAG)
        this.deliver(openChunk(this.queue, CHUNK + TAG, this.key, this.index++, false));
    } catch (e) {
      return done(e as Error);
    }
    done();
  }

  override _flush(done: TransformCallback): void {
    try {
      if (!this.key || this.queue.length < TAG) throw corrupt('truncated');
      this.deliver(openChunk(this.queue, this.queue.length, this.key, this.index++, true));
    } catch (e) {
      return done(e as Error);
    }
    done();
  }
}
