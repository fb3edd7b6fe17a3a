import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A received message, read back with mailparser: what a mail client would show. */
export interface ReceivedEmail {
  messageId: string;
  from: string;
  to: string[];
  subject: string;
  html: string;
  text: string;
  /** Raw header values by lower-case name, folded lines joined. */
  headers: Map<string, string>;
}

export interface SmtpRefusal {
  code: number;
  text: string;
  /** Refused in reply to RCPT TO, or after the message data. */
  stage: 'rcpt' | 'data';
}

export interface TestSmtpServer {
  port: number;
  url: string;
  /** Raw messages accepted so far, oldest first. */
  raw: Buffer[];
  /** Client connections opened so far. */
  connections(): number;
  received(): Promise<ReceivedEmail[]>;
  /** Mail to `address` is refused with `refusal` from now on. */
  refuse(address: string, refusal: SmtpRefusal): void;
  close(): Promise<void>;
}

/** Reads a raw RFC 5322 message with mailparser. */
export async function parseEmail(raw: Buffer | string): Promise<ReceivedEmail> {
  const m = await simpleParser(raw);
  const headers = new Map<string, string>();
  for (const h of m.headerLines)
    headers.set(
      h.key,
      h.line
        .slice(h.line.indexOf(':') + 1)
        .replace(/\r?\n[ \t]+/g, ' ')
        .trim(),
    );
  const addresses = (v: typeof m.to) =>
    (Array.isArray(v) ? v : v ? [v] : []).flatMap((a) => a.value.map((x) => x.address ?? ''));
  return {
    messageId: m.messageId ?? '',
    from: m.from?.text ?? '',
    to: addresses(m.to),
    subject: m.subject ?? '',
    html: typeof m.html === 'string' ? m.html : '',
    text: m.text ?? '',
    headers,
  };
}

/**
 * An SMTP server on 127.0.0.1 (port 0) that keeps what it accepts. Its bundled TLS certificate has expired, so
 * STARTTLS is off: clients must not require TLS. `users` turns on AUTH (PLAIN/LOGIN over the plain connection).
 */
export async function startSmtpServer(users?: Record<string, string>): Promise<TestSmtpServer> {
  const raw: Buffer[] = [];
  let connections = 0;
  const refusals = new Map<string, SmtpRefusal>();
  const refusal = (address: string, stage: SmtpRefusal['stage']) => {
    const r = refusals.get(address.toLowerCase());
    return r?.stage === stage ? Object.assign(new Error(r.text), { responseCode: r.code }) : null;
  };
  const server = new SMTPServer({
    logger: false,
    disabledCommands: users ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
    authOptional: !users,
    allowInsecureAuth: true,
    onConnect(_session, cb) {
      connections += 1;
      cb();
    },
    onAuth(auth, _session, cb) {
      if (users && users[auth.username ?? ''] === auth.password) return cb(null, { user: auth.username });
      cb(Object.assign(new Error('Authentication credentials invalid'), { responseCode: 535 }));
    },
    onRcptTo(address, _session, cb) {
      cb(refusal(address.address, 'rcpt') ?? undefined);
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const refused = session.envelope.rcptTo.map((r) => refusal(r.address, 'data')).find((e) => e !== null);
        if (refused) return cb(refused);
        raw.push(Buffer.concat(chunks));
        cb(null);
      });
    },
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    raw,
    connections: () => connections,
    received: () => Promise.all(raw.map((r) => parseEmail(r))),
    refuse: (address, r) => void refusals.set(address.toLowerCase(), r),
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}
