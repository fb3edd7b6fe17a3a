import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendFailure, unsubscribeHeaders, type Mailer, type OutgoingEmail } from '@fundi/domain/notifications';
import { FakeMailer } from '@fundi/testing';
import { parseEmail, startSmtpServer, type ReceivedEmail, type SmtpRefusal } from '../testing/smtp-test-server.js';
import { NodemailerMailer } from './nodemailer-mailer.js';
import { OutboxFolderMailer } from './outbox-folder-mailer.js';

/** One Mailer under test, with a way to read what arrived and, where the adapter can be refused, to refuse it. */
interface Harness {
  mailer: Mailer;
  received(): Promise<ReceivedEmail[]>;
  refuse?(address: string, refusal: SmtpRefusal): void;
  /** A mailer of the same kind whose server cannot be reached. */
  unreachable?(): Mailer;
  close(): Promise<void>;
}

function fakeHarness(): Harness {
  const fake = new FakeMailer();
  return {
    mailer: fake,
    received: async () =>
      fake.sent.map((m) => ({
        messageId: m.messageId,
        from: m.from,
        to: [m.to],
        subject: m.subject,
        html: m.html,
        text: m.text,
        headers: new Map(Object.entries(m.headers).map(([k, v]) => [k.toLowerCase(), v])),
      })),
    refuse: (address, r) =>
      fake.failFor(address, sendFailure(r.code >= 500 ? 'hard_bounce' : 'soft_bounce', r.code, `${r.code} ${r.text}`)),
    unreachable() {
      const down = new FakeMailer();
      down.failFor(null, sendFailure('unavailable', 'ECONNREFUSED', 'connect ECONNREFUSED'));
      return down;
    },
    close: async () => undefined,
  };
}

async function smtpHarness(): Promise<Harness> {
  const server = await startSmtpServer();
  const mailer = new NodemailerMailer({ url: server.url }, { ignoreTLS: true, timeoutMs: 5_000 });
  const extra: NodemailerMailer[] = [];
  return {
    mailer,
    received: () => server.received(),
    refuse: (a, r) => server.refuse(a, r),
    unreachable() {
      // Port 1 on the loopback address: nothing listens there, so the connection is refused at once.
      const down = new NodemailerMailer(
        { host: '127.0.0.1', port: 1, secure: false },
        { ignoreTLS: true, timeoutMs: 2_000 },
      );
      extra.push(down);
      return down;
    },
    async close() {
      // The pool keeps connections open; the server waits for them before it closes.
      for (const m of [mailer, ...extra]) m.close();
      await server.close();
    },
  };
}

async function folderHarness(): Promise<Harness> {
  const folder = await mkdtemp(join(tmpdir(), 'fundi-outbox-'));
  return {
    mailer: new OutboxFolderMailer(folder),
    async received() {
      const files = (await readdir(folder)).filter((f) => f.endsWith('.eml')).sort();
      return Promise.all(files.map(async (f) => parseEmail(await readFile(join(folder, f)))));
    },
    close: () => rm(folder, { recursive: true, force: true }),
  };
}

const message = (over: Partial<OutgoingEmail> = {}): OutgoingEmail => ({
  from: 'Fundi Academy <no-reply@fundi.example>',
  to: 'thandi@example.org',
  subject: 'Siyakwamukela, Thandi: your evidence was approved ✓',
  html: '<p>Hello <strong>Thandi</strong>, your <em>portfolio</em> was approved.</p>',
  text: 'Hello Thandi, your portfolio was approved.',
  headers: { ...unsubscribeHeaders('https://app.fundi.example/u/tok_123'), 'X-Fundi-Notification': 'ntf_01' },
  ...over,
});

const kinds: [string, () => Promise<Harness>][] = [
  ['fake', async () => fakeHarness()],
  ['nodemailer + smtp-server', smtpHarness],
  ['outbox folder', folderHarness],
];

describe.each(kinds)('Mailer contract: %s', (_name, start) => {
  let h: Harness;
  beforeAll(async () => {
    h = await start();
  });
  afterAll(async () => {
    await h.close();
  });
  const last = async () => (await h.received()).at(-1)!;

  it('delivers subject, HTML, text, extra headers and List-Unsubscribe, under the Message-ID it returns', async () => {
    const before = (await h.received()).length;
    const r = await h.mailer.send(message());
    expect(r).toMatchObject({ ok: true, accepted: ['thandi@example.org'] });
    if (!r.ok) return;
    expect(r.messageId).toMatch(/^<[^<>\s]+@[^<>\s]+>$/);
    expect(await h.received()).toHaveLength(before + 1);
    const got = await last();
    expect(got.messageId).toBe(r.messageId);
    expect(got.to).toEqual(['thandi@example.org']);
    expect(got.from).toContain('no-reply@fundi.example');
    expect(got.subject).toBe('Siyakwamukela, Thandi: your evidence was approved ✓');
    expect(got.html).toContain('<strong>Thandi</strong>');
    expect(got.text.trim()).toBe('Hello Thandi, your portfolio was approved.');
    expect(got.headers.get('list-unsubscribe')).toBe('<https://app.fundi.example/u/tok_123>');
    expect(got.headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    expect(got.headers.get('x-fundi-notification')).toBe('ntf_01');
  });

  it('sends a display-name recipient and many messages at once, each under its own Message-ID', async () => {
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        h.mailer.send(message({ to: `Learner ${i} <learner${i}@example.org>`, subject: `Message ${i}` })),
      ),
    );
    const ids = results.map((r) => (r.ok ? r.messageId : 'failed'));
    expect(new Set(ids).size).toBe(12);
    expect(results.map((r) => r.ok && r.accepted[0])).toEqual(
      Array.from({ length: 12 }, (_, i) => `learner${i}@example.org`),
    );
    const got = (await h.received()).filter((m) => m.subject.startsWith('Message '));
    expect(got.map((m) => m.messageId).sort()).toEqual([...ids].sort());
  });

  it('refuses a message that cannot be sent as given, naming the field, and sends nothing', async () => {
    const before = (await h.received()).length;
    const refused = (over: Partial<OutgoingEmail>, field: string) =>
      expect(h.mailer.send(message(over))).rejects.toMatchObject({ kind: 'invalid', details: [{ field }] });
    await refused({ to: 'not an address' }, 'to');
    await refused({ to: 'Thandi <thandi@>' }, 'to');
    await refused({ from: '' }, 'from');
    await refused({ subject: '  ' }, 'subject');
    await refused({ subject: 'Hi\r\nBcc: victim@example.org' }, 'subject');
    await refused({ text: '' }, 'text');
    await refused({ headers: { 'X-Note': 'a\r\nBcc: victim@example.org' } }, 'headers.X-Note');
    await refused({ headers: { Bcc: 'victim@example.org' } }, 'headers.Bcc');
    await refused({ headers: { 'Bad Name': 'x' } }, 'headers.Bad Name');
    expect(await h.received()).toHaveLength(before);
  });

  it('sends a text-only message when there is no HTML', async () => {
    const r = await h.mailer.send(message({ html: '', subject: 'Plain only' }));
    expect(r.ok).toBe(true);
    const got = await last();
    expect(got.subject).toBe('Plain only');
    expect(got.html).toBe('');
    expect(got.text.trim()).toBe('Hello Thandi, your portfolio was approved.');
  });
});

describe.each(kinds.slice(0, 2))('Mailer contract, failures: %s', (_name, start) => {
  let h: Harness;
  beforeAll(async () => {
    h = await start();
  });
  afterAll(async () => {
    await h.close();
  });

  it('calls a 5xx refusal of the recipient a hard bounce, final', async () => {
    h.refuse!('gone@example.org', { code: 550, text: 'No such user here', stage: 'rcpt' });
    const r = await h.mailer.send(message({ to: 'gone@example.org' }));
    expect(r).toMatchObject({ ok: false, failure: { reason: 'hard_bounce', retryable: false, code: '550' } });
    expect(!r.ok && r.failure.detail).toContain('No such user here');
  });

  it('calls a 4xx refusal a soft bounce, retryable', async () => {
    h.refuse!('busy@example.org', { code: 451, text: 'Greylisted, try again later', stage: 'rcpt' });
    await expect(h.mailer.send(message({ to: 'busy@example.org' }))).resolves.toMatchObject({
      ok: false,
      failure: { reason: 'soft_bounce', retryable: true, code: '451' },
    });
  });

  it('classifies a refusal after the message data the same way', async () => {
    h.refuse!('spamtrap@example.org', { code: 554, text: 'Message rejected as spam', stage: 'data' });
    h.refuse!('full@example.org', { code: 452, text: 'Mailbox full', stage: 'data' });
    await expect(h.mailer.send(message({ to: 'spamtrap@example.org' }))).resolves.toMatchObject({
      ok: false,
      failure: { reason: 'hard_bounce', code: '554' },
    });
    await expect(h.mailer.send(message({ to: 'full@example.org' }))).resolves.toMatchObject({
      ok: false,
      failure: { reason: 'soft_bounce', code: '452' },
    });
  });

  it('keeps sending to other recipients after a bounce', async () => {
    await expect(
      h.mailer.send(message({ to: 'still-fine@example.org', subject: 'After a bounce' })),
    ).resolves.toMatchObject({ ok: true });
    expect(
      (await h.received()).some((m) => m.subject === 'After a bounce' && m.to[0] === 'still-fine@example.org'),
    ).toBe(true);
    expect((await h.received()).some((m) => m.to.includes('gone@example.org'))).toBe(false);
  });

  it('calls an unreachable server unavailable, retryable', async () => {
    await expect(h.unreachable!().send(message())).resolves.toMatchObject({
      ok: false,
      failure: { reason: 'unavailable', retryable: true, code: 'ECONNREFUSED' },
    });
  });
});
