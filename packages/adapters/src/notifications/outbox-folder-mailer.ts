import { randomUUID } from 'node:crypto';
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  DomainError,
  checkOutgoingEmail,
  mailboxAddress,
  sendFailure,
  type Mailer,
  type OutgoingEmail,
  type SendResult,
} from '@fundi/domain';
import { MailComposer } from './mail-composer.js';
import { mailOptions } from './nodemailer-mailer.js';

/** An id that may stand in a file name (`lrn_...`). */
const ID = /^[A-Za-z0-9_-]{1,64}$/;
/** Learners one file name may carry. */
const MAX_ABOUT = 8;

/** `<time>-<uuid>[.<learner id>...].eml`: no personal data, and the learners the message is about. */
function fileName(about: readonly string[] = []): string {
  if (about.length > MAX_ABOUT) throw DomainError.invalid('about', `must name at most ${MAX_ABOUT} learners`);
  for (const id of about) if (!ID.test(id)) throw DomainError.invalid('about', 'must be ids (letters, digits, _, -)');
  const stem = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID()}`;
  return [stem, ...about, 'eml'].join('.');
}

/**
 * Deletes the outbox folder's messages about the learner (their names carry its id), with any copy left half
 * written; returns how many messages. A folder that does not exist holds none.
 */
export async function forgetOutboxMail(folder: string, learnerId: string): Promise<number> {
  if (!ID.test(learnerId)) return 0;
  let names: string[];
  try {
    names = await readdir(folder);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw e;
  }
  let removed = 0;
  for (const name of names) {
    const parts = name.split('.');
    if (!parts.slice(1).includes(learnerId)) continue;
    await rm(join(folder, name), { force: true });
    if (name.endsWith('.eml')) removed++;
  }
  return removed;
}

/**
 * The embedded default when no SMTP server is configured: each message is composed exactly as it would be sent and
 * written to `folder` as `<time>-<uuid>.eml` (RFC 5322, opens in any mail client), the ids of the learners it is
 * about (`OutgoingEmail.about`) before the extension, so an erasure finds it (`forgetOutboxMail`). A file appears
 * whole or not at all (written aside, then renamed). A folder that cannot be written is `unavailable`, so the send
 * is retried. Messages are composed on a worker thread (`MailComposer`); `close()` stops it.
 */
export class OutboxFolderMailer implements Mailer {
  private ready: Promise<unknown> | null = null;

  constructor(
    readonly folder: string,
    readonly composer: MailComposer = new MailComposer(),
  ) {}

  async send(message: OutgoingEmail): Promise<SendResult> {
    checkOutgoingEmail(message);
    const name = fileName(message.about);
    const composed = await this.composer.compose(mailOptions(message));
    const aside = join(this.folder, `.${name}.tmp`);
    try {
      this.ready ??= mkdir(this.folder, { recursive: true });
      await this.ready;
      await writeFile(aside, composed.message);
      await rename(aside, join(this.folder, name));
    } catch (e) {
      this.ready = null;
      await rm(aside, { force: true }).catch(() => {});
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
