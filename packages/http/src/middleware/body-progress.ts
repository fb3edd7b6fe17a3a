import type { IncomingMessage } from 'node:http';
import { DomainError } from '@fundi/domain';

/** How long a request body may send nothing before it is answered 408 (docs/api.md, "A request's limits"). */
export const DEFAULT_BODY_IDLE_TIMEOUT_MS = 60_000;

export function requestTimeout(idleMs: number): DomainError {
  return new DomainError(
    'invalid',
    'request_timeout',
    `The request body sent nothing for ${idleMs / 1000} s; send it again`,
    [],
    { idleMs },
  );
}

/** A request timed out waiting for its body: its answer is the connection's last. */
export function isRequestTimeout(e: unknown): boolean {
  return e instanceof DomainError && e.code === 'request_timeout';
}

/**
 * Calls `onIdle` once when the client sends nothing of `req`'s body for `idleMs` while the server waits for it.
 * Bytes already received and not yet taken by the server's own reader (a slow file store) are the server's wait,
 * not the client's: the clock starts again. Stops by itself when the body has ended or the request closed; the
 * returned function stops it earlier. Attach once `req` is being read (piped or listened to), not before: a `data`
 * listener would start it flowing.
 */
export function watchBodyProgress(req: IncomingMessage, idleMs: number, onIdle: (e: DomainError) => void): () => void {
  if (req.complete) return () => {};
  const check = () => {
    if (req.complete) return stop();
    if (req.readableLength > 0) return void timer.refresh();
    stop();
    onIdle(requestTimeout(idleMs));
  };
  const timer = setTimeout(check, idleMs);
  const progress = () => timer.refresh();
  const stop = () => {
    clearTimeout(timer);
    req.off('data', progress);
    req.off('end', stop);
    req.off('close', stop);
  };
  req.on('data', progress);
  req.once('end', stop);
  req.once('close', stop);
  return stop;
}

/**
 * The whole body of `req`, at most `maxBytes`: fails with `tooLarge()` as soon as it passes them, and with 408 when
 * it sends nothing for `idleMs`. After a failure what the client still sends is read and dropped.
 */
export function readWholeBody(
  req: IncomingMessage,
  o: { maxBytes: number; idleMs: number; tooLarge: () => DomainError },
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (e: unknown) => {
      req.off('data', take);
      req.off('end', end);
      req.off('error', finish);
      stopWatching();
      if (e) reject(e);
      else resolve(Buffer.concat(chunks, size));
    };
    const take = (chunk: Buffer) => {
      size += chunk.length;
      if (size > o.maxBytes) finish(o.tooLarge());
      else chunks.push(chunk);
    };
    const end = () => finish(null);
    req.on('data', take);
    req.once('end', end);
    req.once('error', finish);
    const stopWatching = watchBodyProgress(req, o.idleMs, finish);
  });
}
