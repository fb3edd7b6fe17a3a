import { createCipheriv, createHash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { DomainError } from '@fundi/domain';
import { ByteQueue } from './byte-queue.js';
import { CHUNK, chunkAad, chunkNonce } from './encryption-format.js';

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
