import pino, { type Logger } from 'pino';

let stdout: pino.DestinationStream | undefined;

/**
 * stdout, buffered: lines are written 4 KB at a time (and at least every 250 ms, and on exit), so a busy server
 * makes one write system call per batch instead of one per log line.
 */
function sharedStdout(): pino.DestinationStream {
  if (!stdout) {
    const dest = pino.destination({ dest: 1, sync: false, minLength: 4096 });
    setInterval(() => dest.flush(), 250).unref();
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
 * duration, key id). It skips the redaction pass, which costs more than the rest of the line.
 */
export function createAccessLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino({ level, base: { service: 'fundi', log: 'access' } }, destination ?? sharedStdout());
}
