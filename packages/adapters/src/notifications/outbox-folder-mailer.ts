import { randomUUID } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  checkOutgoingEmail,
  mailboxAddress,
  sendFailure,
  type Mailer,
  type OutgoingEmail,
  type SendResult,
} from '@fundi/domain';
import { MailComposer } from './mail-composer.js';
import { mailOptions } from './nodemailer-mailer.js';

/**
 * The embedded default when no SMTP server is configured: each message is composed exactly as it would be sent and
 * written to `folder` as `<time>-<uuid>.eml` (RFC 5322, opens in any mail client). A file appears whole or not at
 * all (written aside, then renamed). A folder that cannot be written is `unavailable`, so the send is retried.
 * Messages are composed on a worker thread (`MailComposer`); `close()` stops it.
 */
export class OutboxFolderMailer implements Mailer {
  private ready: Promise<unknown> | null = null;

  constructor(
    readonly folder: string,
    readonly composer: MailComposer = new MailComposer(),
  ) {}

  async send(message: OutgoingEmail): Promise<SendResult> {
    checkOutgoingEmail(message);
    const composed = await this.composer.compose(mailOptions(message));
    const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID()}.eml`;
    try {
      this.ready ??= mkdir(this.folder, { recursive: true });
      await this.ready;
      const aside = join(this.folder, `.${name}.tmp`);
      await writeFile(aside, composed.message);
      await rename(aside, join(this.folder, name));
    } catch (e) {
      this.ready = null;
      const err = e as NodeJS.ErrnoException;
      return { ok: false, failure: sendFailure('unavailable', err.code ?? null, `outbox folder: ${err.message}`) };
    }
    return { ok: true, messageId: composed.messageId, accepted: [mailboxAddress(message.to, 'to')] };
  }

  /** Stops the composer's thread (shutdown); a later send composes in-process. */
  close(): Promise<void> {
    return this.composer.close();
  }
}
