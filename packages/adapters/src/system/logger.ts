import pino, { type Logger } from 'pino';

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
  }, destination);
}

/**
 * The access log: one line per request with fixed, non-personal fields (request id, method, path, status,
 * duration, key id). It skips the redaction pass, which costs more than the rest of the line.
 */
export function createAccessLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino({ level, base: { service: 'fundi', log: 'access' } }, destination);
}
