import { randomUUID } from 'node:crypto';
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DomainError } from '@fundi/domain';
import {
  checkOutgoingEmail,
  mailboxAddress,
  sendFailure,
  type Mailer,
  type OutgoingEmail,
  type SendResult,
} from '@fundi/domain/notifications';
import { MailComposer } from './mail-composer.js';
import { mailOptions } from './nodemailer-mailer.js';

/** An id that may stand in a file name (`lrn_...`, `ntf_...`). */
const ID = /^[A-Za-z0-9_-]{1,64}$/;
/** Ids one file name may carry. */
const MAX_REFS = 8;

/** `<time>-<uuid>[.<id>...].eml`: no personal data, and the ids the message is filed under. */
function fileName(refs: readonly string[] = []): string {
  if (refs.length > MAX_REFS) throw DomainError.invalid('refs', `must name at most ${MAX_REFS} ids`);
  for (const id of refs) if (!ID.test(id)) throw DomainError.invalid('refs', 'must be ids (letters, digits, _, -)');
  const stem = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID()}`;
  return [stem, ...refs, 'eml'].join('.');
}

/**
 * Deletes the outbox folder's messages filed under any of `refs` (a learner's id, a notification's), with any copy
 * left half written; returns how many messages. A folder that does not exist holds none.
 */
export async function forgetOutboxMail(folder: string, refs: readonly string[]): Promise<number> {
  const wanted = new Set(refs.filter((r) => ID.test(r)));
  if (wanted.size === 0) return 0;
  let names: string[];
  try {
    names = await readdir(folder);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw e;
  }
  let removed = 0;
  for (const name of names) {
    if (
      !name
        .split('.')
        .slice(1)
        .some((part) => wanted.has(part))
    )
      continue;
    await rm(join(folder, name), { force: true });
    if (name.endsWith('.eml')) removed++;
  }
  return removed;
}

/**
 * The embedded default when no SMTP server is configured: each message is composed exactly as it would be sent and
 * written to `folder` as `<time>-<uuid>.eml` (RFC 5322, opens in any mail client), the ids it is filed under
 * (`OutgoingEmail.refs`: its notification, its learners) before the extension, so an erasure finds it
 * (`forgetOutboxMail`). A file appears
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
    const name = fileName(message.refs);
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
