import { Readable } from 'node:stream';
import { corrupt } from './encryption-format.js';

/** Reads the first `n` bytes of a stream and gives back a stream of the whole (nothing is lost, nothing copied). */
export async function peek(source: Readable, n: number): Promise<{ head: Buffer; whole: Readable }> {
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
    const b = r.value as Buffer;
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
      yield r.value as Buffer;
    }
  }
  return { head: head.subarray(0, n), whole: Readable.from(rest(), { objectMode: false }) };
}

/**
 * The first `n` bytes of a stream (fewer when it is shorter), put back so the stream still starts with them (no
 * copy of the rest). An empty stream is an empty head when `emptyOk`, else a file too short to be one of ours.
 */
export async function readHead(s: Readable, n: number, emptyOk: boolean): Promise<Buffer> {
  for (;;) {
    if (s.errored) throw s.errored;
    const b = (s.read(n) as Buffer | null) ?? (s.readableEnded ? (s.read() as Buffer | null) : null);
    if (b) {
      s.unshift(b);
      return b.subarray(0, n);
    }
    if (s.readableEnded && emptyOk) return Buffer.alloc(0);
    if (s.readableEnded) throw corrupt('too short');
    if (s.destroyed)
      throw s.errored ?? Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' });
    await new Promise<void>((resolve, reject) => {
      const done = () => {
        s.off('readable', done).off('end', done).off('close', done).off('error', fail);
        resolve();
      };
      const fail = (e: Error) => {
        s.off('readable', done).off('end', done).off('close', done).off('error', fail);
        reject(e);
      };
      s.once('readable', done).once('end', done).once('close', done).once('error', fail);
    });
  }
}

/** A whole (small) stream as one Buffer. */
export async function readAll(s: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of s) chunks.push(Buffer.from(c as Uint8Array));
  return Buffer.concat(chunks);
}
