import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OutgoingEmail } from '@fundi/domain';
import { startSmtpServer, type TestSmtpServer } from '../testing/smtp-test-server.js';
import { NodemailerMailer } from './nodemailer-mailer.js';
import { OutboxFolderMailer } from './outbox-folder-mailer.js';
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
