import type { AccessLine, AccessLog } from '@fundi/application';
import pino, { type Logger } from 'pino';

type SonicBoom = ReturnType<typeof pino.destination>;

/**
 * Collects log lines and hands them to `out` about 4 KB at a time. SonicBoom measures its whole pending buffer in
 * bytes on every write it is given (up to 16 KB while a write is under way), which cost more per request than
 * making the line; given batches, it measures once per batch.
 */
export class LineBatcher implements pino.DestinationStream {
  private lines: string[] = [];
  private chars = 0;
  constructor(
    private readonly out: Pick<SonicBoom, 'write' | 'flushSync'>,
    private readonly minChars = 4096,
  ) {}
  write(line: string): void {
    this.lines.push(line);
    this.chars += line.length;
    if (this.chars >= this.minChars) this.pass();
  }
  /** Hands on what is collected; SonicBoom writes it as soon as no write is under way. */
  pass(): void {
    if (this.lines.length === 0) return;
    const batch = this.lines.join('');
    this.lines = [];
    this.chars = 0;
    this.out.write(batch);
  }
  /** Writes everything, collected and pending, before returning (at exit). */
  flushSync(): void {
    this.pass();
    this.out.flushSync();
  }
}

let stdout: LineBatcher | undefined;

/**
 * stdout, buffered: lines are written 4 KB at a time (and at least every 250 ms, and on exit), so a busy server
 * makes one write system call per batch instead of one per log line.
 */
function sharedStdout(): pino.DestinationStream {
  if (!stdout) {
    const dest = new LineBatcher(pino.destination({ dest: 1, sync: false }));
    setInterval(() => dest.pass(), 250).unref();
    process.once('exit', () => dest.flushSync());
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
