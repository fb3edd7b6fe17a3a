import { createDecipheriv } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { ByteQueue } from './byte-queue.js';
import { CHUNK, chunkAad, chunkNonce, corrupt, TAG } from './encryption-format.js';

/**
 * Opens the next sealed chunk of `n` bytes (ciphertext, then its tag) from `queue`: its plaintext pieces, given only
 * once the tag verified; nothing of an altered chunk is returned.
 */
export function openChunk(
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
