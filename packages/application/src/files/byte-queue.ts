/**
 * Bytes that arrive in pieces, taken from the front as views of the pieces, not copies (docs/performance.md,
 * "Evidence files"): the encryption streams seal and open 64 KiB chunks straight from what the socket or the disk
 * handed over, so a file's bytes are not copied again on their way through.
 */
export class ByteQueue {
  private readonly parts: Buffer[] = [];
  /** Where the first piece's unread bytes begin. */
  private head = 0;
  /** The bytes in the queue. */
  length = 0;

  push(piece: Buffer): void {
    if (piece.length === 0) return;
    this.parts.push(piece);
    this.length += piece.length;
  }

  /** Hands the next `n` bytes (at most `length`) to `each`, piece by piece as views, and drops them. */
  take(n: number, each: (piece: Buffer) => void): void {
    let left = Math.min(n, this.length);
    while (left > 0) {
      const p = this.parts[0]!;
      const available = p.length - this.head;
      const k = Math.min(available, left);
      each(k === p.length ? p : p.subarray(this.head, this.head + k));
      left -= k;
      this.length -= k;
      if (k === available) {
        this.parts.shift();
        this.head = 0;
      } else this.head += k;
    }
  }

  /** The next `n` bytes (at most `length`) in one buffer: a view when they lie in one piece, else a copy. */
  takeBuffer(n: number): Buffer {
    const want = Math.min(n, this.length);
    const first = this.parts[0];
    if (first && first.length - this.head >= want) {
      let out: Buffer | undefined;
      this.take(want, (p) => {
        out = p;
      });
      return out ?? Buffer.alloc(0);
    }
    const out = Buffer.allocUnsafe(want);
    let at = 0;
    this.take(want, (p) => {
      p.copy(out, at);
      at += p.length;
    });
    return out;
  }
}
