import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OutgoingEmail } from '@fundi/domain/notifications';
import { startSmtpServer, type TestSmtpServer } from '../testing/smtp-test-server.js';
import { NodemailerMailer } from './nodemailer-mailer.js';
import { OutboxFolderMailer, forgetOutboxMail } from './outbox-folder-mailer.js';
import { smtpFailure } from './smtp-failure.js';

const message: OutgoingEmail = {
  from: 'no-reply@fundi.example',
  to: 'sipho@example.org',
  subject: 'Hello',
  html: '<p>Hi</p>',
  text: 'Hi',
  headers: {},
};

describe('NodemailerMailer with credentials', () => {
  let server: TestSmtpServer;
  beforeAll(async () => {
    server = await startSmtpServer({ fundi: 's3cret pass' });
  });
  afterAll(() => server.close());

  it('logs in with the credentials of a URL or of settings, over a few pooled connections', async () => {
    const byUrl = new NodemailerMailer(
      { url: `smtp://fundi:${encodeURIComponent('s3cret pass')}@127.0.0.1:${server.port}` },
      { ignoreTLS: true, maxConnections: 2 },
    );
    const bySettings = new NodemailerMailer(
      { host: '127.0.0.1', port: server.port, secure: false, user: 'fundi', password: 's3cret pass' },
      { ignoreTLS: true },
    );
    try {
      const results = await Promise.all(Array.from({ length: 10 }, () => byUrl.send(message)));
      expect(results.every((r) => r.ok)).toBe(true);
      expect(server.connections()).toBeLessThanOrEqual(2);
      await expect(bySettings.send(message)).resolves.toMatchObject({ ok: true, accepted: ['sipho@example.org'] });
      expect(server.raw).toHaveLength(11);
    } finally {
      byUrl.close();
      bySettings.close();
    }
  });

  it('calls refused credentials rejected: final, and no bounce of the recipient', async () => {
    const wrong = new NodemailerMailer(
      { host: '127.0.0.1', port: server.port, secure: false, user: 'fundi', password: 'wrong' },
      { ignoreTLS: true },
    );
    try {
      await expect(wrong.send(message)).resolves.toMatchObject({
        ok: false,
        failure: { reason: 'rejected', retryable: false, code: '535' },
      });
    } finally {
      wrong.close();
    }
  });
});

describe('SMTP failure classification', () => {
  it('judges the stage a reply code came at', () => {
    expect(
      smtpFailure({ code: 'EENVELOPE', responseCode: 553, command: 'MAIL FROM', response: '553 sender refused' }),
    ).toMatchObject({ reason: 'rejected', retryable: false });
    expect(
      smtpFailure({ code: 'EENVELOPE', responseCode: 421, command: 'MAIL FROM', response: '421 closing' }),
    ).toMatchObject({ reason: 'unavailable', retryable: true });
    expect(
      smtpFailure({ code: 'EENVELOPE', responseCode: 550, command: 'RCPT TO', response: '550 unknown' }),
    ).toMatchObject({ reason: 'hard_bounce' });
    expect(smtpFailure({ code: 'ETIMEDOUT', command: 'CONN', message: 'Connection timeout' })).toMatchObject({
      reason: 'unavailable',
      code: 'ETIMEDOUT',
    });
    expect(smtpFailure('odd')).toMatchObject({ reason: 'unavailable', code: null, detail: 'odd' });
  });
});

describe('OutboxFolderMailer', () => {
  it('files each message under its ids, never personal data; an erasure deletes those filed under its ids', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'fundi-outbox-'));
    const mailer = new OutboxFolderMailer(dir);
    try {
      const send = (refs: string[], to = message.to) => mailer.send({ ...message, to, refs });
      expect(await send(['ntf_01a', 'lrn_01erased'])).toMatchObject({ ok: true });
      expect(await send(['ntf_01b', 'lrn_01erased'], 'admin@example.org')).toMatchObject({ ok: true });
      expect(await send(['ntf_01c'], 'assessor@example.org')).toMatchObject({ ok: true });
      expect(await send(['ntf_01d', 'lrn_01kept'])).toMatchObject({ ok: true });
      expect(await mailer.send(message)).toMatchObject({ ok: true });
      const names = (await readdir(dir)).sort();
      expect(names).toHaveLength(5);
      for (const n of names) expect(n).toMatch(/^[0-9TZ-]+-[0-9a-f-]{36}(\.ntf_[0-9a-z]+)?(\.lrn_[0-9a-z]+)?\.eml$/);
      expect(names.filter((n) => n.includes('.lrn_01erased.'))).toHaveLength(2);
      // Copies a killed process left half written go too.
      await writeFile(join(dir, '.2026-06-01T08-00-00-000Z-x.ntf_01e.lrn_01erased.eml.tmp'), 'half');
      // The learner's own mail and the mail about them, and a staff message found to name them (by its id).
      expect(await forgetOutboxMail(dir, ['lrn_01erased', 'ntf_01c', 'ntf_gone'])).toBe(3);
      const left = (await readdir(dir)).sort();
      expect(left).toHaveLength(2);
      expect(left.some((n) => n.includes('lrn_01erased') || n.includes('ntf_01c'))).toBe(false);
      expect(await readFile(join(dir, left.find((n) => n.includes('lrn_01kept'))!), 'utf8')).toContain(
        'To: sipho@example.org',
      );
      expect(await forgetOutboxMail(join(dir, 'missing'), ['lrn_01erased'])).toBe(0);
      expect(await forgetOutboxMail(dir, ['../x', ''])).toBe(0);
      await expect(send(['../x'])).rejects.toMatchObject({ kind: 'invalid' });
    } finally {
      await mailer.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('calls a folder it cannot write unavailable, so the send is retried', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'fundi-outbox-'));
    try {
      await writeFile(join(dir, 'taken'), 'a file, not a folder');
      const r = await new OutboxFolderMailer(join(dir, 'taken')).send(message);
      expect(r).toMatchObject({ ok: false, failure: { reason: 'unavailable', retryable: true } });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
