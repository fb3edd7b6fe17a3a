import { writeSync } from 'node:fs';
import type { AccessLine, AccessLog } from '@fundi/application';
import pino, { type Logger } from 'pino';

type SonicBoom = ReturnType<typeof pino.destination>;

/** Where a `LineBatcher` hands its batches: bytes, written in the order given. */
export interface BatchSink {
  /** Queues a batch; it is written as soon as no write is under way. */
  write(batch: Buffer): unknown;
  /** Writes what is queued before returning. */
  flushSync(): void;
  /** Writes a batch before returning, after what is queued. */
  writeSync(batch: Buffer): void;
}

/**
 * Collects log lines as UTF-8 bytes in a buffer outside V8's heap and hands them to `out` about 4 KB at a time.
 * Lines held as strings until their batch was written outlived the young generation's collections of the requests
 * served meanwhile and were copied and promoted with them (most of what a busy server promoted); held as bytes, a
 * batch is one small object. Batching also spares the destination a measure of its pending buffer per line.
 */
export class LineBatcher implements pino.DestinationStream {
  private buf: Buffer;
  private used = 0;
  constructor(
    private readonly out: BatchSink,
    private readonly minBytes = 4096,
  ) {
    this.buf = Buffer.allocUnsafe(Math.max(minBytes * 4, 1024));
  }
  write(line: string): void {
    // UTF-8 takes at most 3 bytes for each UTF-16 unit of the line.
    if (this.used + line.length * 3 > this.buf.length) {
      this.pass();
      if (line.length * 3 > this.buf.length) {
        this.out.write(Buffer.from(line, 'utf8'));
        return;
      }
    }
    this.used += this.buf.write(line, this.used, 'utf8');
    if (this.used >= this.minBytes) this.pass();
  }
  /** Hands on what is collected (a copy: the destination keeps it until written); written as soon as it can. */
  pass(): void {
    if (this.used === 0) return;
    this.out.write(Buffer.from(this.buf.subarray(0, this.used)));
    this.used = 0;
  }
  /**
   * Writes everything, queued and collected, before returning (at exit). The collected bytes are written here, not
   * queued: queued, they would start a write on the thread pool that the exiting process does not wait for. They are
   * written even when the destination's own flush fails (pino ends its stream when the event loop empties, and an
   * ended stream refuses to flush).
   */
  flushSync(): void {
    const rest = this.buf.subarray(0, this.used);
    this.used = 0;
    try {
      this.out.flushSync();
    } finally {
      if (rest.length > 0) this.out.writeSync(rest);
    }
  }
}

/** SonicBoom in its buffer mode takes Buffers to write; its type names only strings, so the call is made as such. */
function bufferSink(boom: SonicBoom, fd: number): BatchSink {
  return {
    write: (batch) => Reflect.apply(boom.write, boom, [batch]),
    flushSync: () => boom.flushSync(),
    writeSync: (batch) => writeAllSync(fd, batch),
  };
}

/**
 * Writes all of `bytes` to `fd`, waiting out a full pipe (EAGAIN) for up to about ten seconds. A destination that is
 * gone (its reader closed: EPIPE) takes nothing more, and the rest is dropped: there is nowhere else to write it.
 */
function writeAllSync(fd: number, bytes: Buffer): void {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  let left = bytes;
  for (let waits = 0; left.length > 0; ) {
    try {
      left = left.subarray(writeSync(fd, left));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EAGAIN' || ++waits > 1000) return;
      Atomics.wait(pause, 0, 0, 10);
    }
  }
}

let stdout: LineBatcher | undefined;

/**
 * stdout, buffered: lines are written 4 KB at a time (and at least every 250 ms, and on exit), so a busy server
 * makes one write system call per batch instead of one per log line.
 */
function sharedStdout(): pino.DestinationStream {
  if (!stdout) {
    const dest = new LineBatcher(bufferSink(pino.destination({ dest: 1, sync: false, contentMode: 'buffer' }), 1));
    setInterval(() => dest.pass(), 250).unref();
    process.once('exit', () => {
      try {
        dest.flushSync();
      } catch {
        // stdout is gone (its reader closed): what is left cannot be written anywhere, and an exit must not fail.
      }
    });
    stdout = dest;
  }
  return stdout;
}

/**
 * Structured JSON logs. Personal data must never be logged; the redaction list is a safety net for fields that
 * could slip into a logged object by mistake.
 */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'fundi' },
      redact: {
        paths: [
          'idNumber',
          'saIdNumber',
          'email',
          'mobile',
          '*.idNumber',
          '*.saIdNumber',
          '*.email',
          '*.mobile',
          'authorization',
          '*.authorization',
        ],
        censor: '[redacted]',
      },
    },
    destination ?? sharedStdout(),
  );
}

/**
 * The access log: one line per request with fixed, non-personal fields (request id, method, path, status,
 * duration, key id), at level info. The line is the one a pino logger with this log's bindings writes
 * (`{"level":30,"time":…,"service":"fundi","log":"access",…,"msg":"request"}`), made from one template: its
 * fields are always the same, so pino's general serialiser (which walks each object, checks each value and runs
 * its hooks) costs more than the line. Below `info` (`warn`, `silent`) it writes nothing.
 */
export function createAccessLog(level: string, destination?: pino.DestinationStream): AccessLog {
  // pino's own table of level numbers (`info` is 30); an unknown name logs as info would.
  if (level === 'silent' || (pino.levels.values[level] ?? 30) > pino.levels.values.info!) return { request() {} };
  const out = destination ?? sharedStdout();
  const s = JSON.stringify;
  return {
    request(l: AccessLine) {
      const key = l.key === undefined ? '' : `,"key":${s(l.key)}`;
      out.write(
        `{"level":30,"time":${Date.now()},"service":"fundi","log":"access","requestId":${s(l.requestId)},"method":${s(l.method)},"path":${s(l.path)},"status":${l.status},"ms":${l.ms}${key},"msg":"request"}\n`,
      );
    },
  };
}

/** The access log through a given logger (tests that capture one logger's output pass theirs). */
export function accessLogThrough(logger: Logger): AccessLog {
  return { request: (l) => logger.info({ ...l }, 'request') };
}
