import { checkOutgoingEmail, type Mailer, type OutgoingEmail, type SendResult } from '@fundi/domain/notifications';
import nodemailer, { type SendMailOptions, type Transporter } from 'nodemailer';
import { smtpFailure } from './smtp-failure.js';

/** An SMTP server: a URL (`smtp://user:pass@host:587`, `smtps://...:465`) or its parts. */
export type SmtpSettings =
  | { url: string }
  | { host: string; port: number; secure: boolean; user?: string; password?: string };

export interface SmtpOptions {
  /** Connections kept open to the server (default 5). */
  maxConnections?: number;
  /** Limit for connecting, the greeting and socket inactivity (default 30 s). */
  timeoutMs?: number;
  /** Never upgrade with STARTTLS, even when offered: for a local test server only. */
  ignoreTLS?: boolean;
}

/** Turns a message into the options nodemailer sends; local files and URLs are never read into a message. */
export function mailOptions(m: OutgoingEmail): SendMailOptions {
  return {
    from: m.from,
    to: m.to,
    subject: m.subject,
    text: m.text,
    ...(m.html ? { html: m.html } : {}),
    headers: { ...m.headers },
    disableFileAccess: true,
    disableUrlAccess: true,
  };
}

/** Sends through an SMTP server over a pool of kept-open connections. `close()` ends them. */
export class NodemailerMailer implements Mailer {
  private readonly transport: Transporter;

  constructor(smtp: SmtpSettings, options: SmtpOptions = {}) {
    const timeout = options.timeoutMs ?? 30_000;
    const server =
      'url' in smtp
        ? { url: smtp.url }
        : {
            host: smtp.host,
            port: smtp.port,
            secure: smtp.secure,
            ...(smtp.user ? { auth: { user: smtp.user, pass: smtp.password ?? '' } } : {}),
          };
    this.transport = nodemailer.createTransport({
      ...server,
      pool: true,
      maxConnections: options.maxConnections ?? 5,
      ignoreTLS: options.ignoreTLS ?? false,
      connectionTimeout: timeout,
      greetingTimeout: timeout,
      socketTimeout: timeout,
    });
  }

  async send(message: OutgoingEmail): Promise<SendResult> {
    checkOutgoingEmail(message);
    try {
      const info = await this.transport.sendMail(mailOptions(message));
      return { ok: true, messageId: info.messageId, accepted: info.accepted ?? [] };
    } catch (e) {
      return { ok: false, failure: smtpFailure(e) };
    }
  }

  close(): void {
    this.transport.close();
  }
}
