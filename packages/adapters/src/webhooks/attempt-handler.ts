import type { AttemptResult } from '@fundi/domain/webhooks';
import type { Dispatcher } from 'undici';
import { BlockedAddressError } from './address-guard.js';

const EXCERPT = 1024;
/** Bodies up to this size are read to the end so the keep-alive connection can be reused; longer ones are cut. */
const DRAIN_LIMIT = 64 * 1024;

/**
 * One attempt as an undici dispatch handler: keeps the status and the first 1 KB of the body, and settles once.
 * It replaces `request()`, whose body stream, promise and header object per response cost the worker more CPU
 * than the attempt needs (the worker shares the machine with the receiver and the database).
 */
export class AttemptHandler implements Dispatcher.DispatchHandler {
  private status: number | null = null;
  private parts: Buffer[] = [];
  private kept = 0;
  private size = 0;
  private cut = false;

  constructor(
    private readonly started: number,
    private readonly timeoutMs: number,
    private readonly settle: (r: AttemptResult) => void,
  ) {}

  /** Nothing to do; undici tells this handler API from the older one by this method being present. */
  onRequestStart(): void {}

  onResponseStart(_c: Dispatcher.DispatchController, statusCode: number): void {
    this.status = statusCode;
  }

  onResponseData(c: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.kept < EXCERPT) {
      this.parts.push(chunk);
      this.kept += chunk.length;
    }
    this.size += chunk.length;
    if (this.size > DRAIN_LIMIT) {
      // Reading more would only keep a connection for a receiver that talks too much: drop it.
      this.cut = true;
      c.abort(new Error('response body over the drain limit'));
    }
  }

  onResponseEnd(): void {
    this.finish();
  }

  onResponseError(_c: Dispatcher.DispatchController, err: Error): void {
    if (this.cut) return this.finish();
    this.settle({
      statusCode: null,
      latencyMs: this.elapsed(),
      error: describe(err, this.timeoutMs),
      responseExcerpt: null,
    });
  }

  private finish(): void {
    const latencyMs = this.elapsed();
    const status = this.status!;
    // undici's timers are coarse (they may fire late); the verdict uses the measured time, so it is exact.
    const late = latencyMs > this.timeoutMs ? `timeout after ${this.timeoutMs} ms` : null;
    const redirect = status >= 300 && status < 400 ? 'redirect not followed' : null;
    const excerpt = this.size === 0 ? null : Buffer.concat(this.parts).subarray(0, EXCERPT).toString('utf8');
    this.settle({ statusCode: status, latencyMs, error: late ?? redirect, responseExcerpt: excerpt });
  }

  private elapsed(): number {
    return Math.round(performance.now() - this.started);
  }
}

export function describe(e: unknown, timeoutMs: number): string {
  const err = e as { name?: string; code?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e instanceof BlockedAddressError) return e.message;
  if (err.name === 'TimeoutError' || err.name === 'AbortError' || err.code?.includes('TIMEOUT'))
    return `timeout after ${timeoutMs} ms`;
  const code = err.code ?? err.cause?.code;
  if (code === 'ECONNREFUSED') return 'connection refused';
  return `${code ? `${code}: ` : ''}${err.message ?? String(e)}`.slice(0, 500);
}
