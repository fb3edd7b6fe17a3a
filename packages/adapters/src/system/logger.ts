import pino, { type Logger } from 'pino';

let stdout: pino.DestinationStream | undefined;

/**
 * stdout, written asynchronously: lines written while a write is in flight go out together, so a busy server
 * makes one write per batch instead of one system call per log line. Flushed on exit.
 */
function sharedStdout(): pino.DestinationStream {
  if (!stdout) {
    const dest = pino.destination({ dest: 1, sync: false });
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
  return pino({
    level,
    base: { service: 'fundi' },
    redact: {
      paths: ['idNumber', 'saIdNumber', 'email', 'mobile', '*.idNumber', '*.saIdNumber', '*.email', '*.mobile', 'authorization', '*.authorization'],
      censor: '[redacted]',
    },
  }, destination ?? sharedStdout());
}

/**
 * The access log: one line per request with fixed, non-personal fields (request id, method, path, status,
 * duration, key id). It skips the redaction pass, which costs more than the rest of the line.
 */
export function createAccessLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino({ level, base: { service: 'fundi', log: 'access' } }, destination ?? sharedStdout());
}
