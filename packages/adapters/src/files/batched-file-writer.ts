import { type FileHandle, open } from 'node:fs/promises';
import { Writable } from 'node:stream';

/** Bytes gathered before one write to the file. */
const WRITE_BATCH = 1024 * 1024;

/**
 * A new file (`wx`: never one that exists) written in batches of about 1 MB, each one `writev` of the chunks as they
 * came (no copy): a stream of 64 KiB chunks and their tags was a write, and a trip to libuv's thread pool, each
 * (docs/performance.md, "Evidence files"). Chunks are taken at once until a batch is full; then the writer waits
 * for the disk, so no more than two batches are held.
 */
export class BatchedFileWriter extends Writable {
  private handle: FileHandle | null = null;
  private batch: Buffer[] = [];
  private batchBytes = 0;

  constructor(private readonly path: string) {
    super({ highWaterMark: WRITE_BATCH });
  }

  override _construct(done: (e?: Error | null) => void): void {
    open(this.path, 'wx').then((h) => {
      this.handle = h;
      done();
    }, done);
  }

  override _write(chunk: Buffer, _e: BufferEncoding, done: (e?: Error | null) => void): void {
    this.batch.push(chunk);
    this.batchBytes += chunk.length;
    if (this.batchBytes < WRITE_BATCH) return done();
    this.flushBatch().then(() => done(), done);
  }

  override _final(done: (e?: Error | null) => void): void {
    this.flushBatch().then(() => done(), done);
  }

  override _destroy(e: Error | null, done: (e?: Error | null) => void): void {
    const h = this.handle;
    this.handle = null;
    if (!h) return done(e);
    h.close().then(
      () => done(e),
      (closeError: Error) => done(e ?? closeError),
    );
  }

  private async flushBatch(): Promise<void> {
    let left = this.batch;
    this.batch = [];
    this.batchBytes = 0;
    while (left.length) {
      const { bytesWritten } = await this.handle!.writev(left);
      const rest = afterBytes(left, bytesWritten);
      if (bytesWritten === 0 && rest.length) throw new Error(`${this.path}: the disk took no bytes`);
      left = rest;
    }
  }
}

/** What remains of `buffers` once their first `n` bytes are written. */
function afterBytes(buffers: Buffer[], n: number): Buffer[] {
  let skip = n;
  let i = 0;
  while (i < buffers.length && skip >= buffers[i]!.length) skip -= buffers[i++]!.length;
  if (i === buffers.length) return [];
  return [buffers[i]!.subarray(skip), ...buffers.slice(i + 1)];
}
