import { Transform, type TransformCallback } from 'node:stream';
import { ByteQueue } from './byte-queue.js';
import { openChunk } from './decrypt-stream.js';
import { CHUNK, corrupt, HEADER, type MasterKeyring, openHeader, TAG } from './encryption-format.js';

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
