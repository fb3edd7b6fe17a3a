import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Worker } from 'node:worker_threads';
import { simpleParser } from 'mailparser';
import { describe, expect, it } from 'vitest';
import type { OutgoingEmail } from '@fundi/domain/notifications';
import { scratchDir } from '../testing/scratch-dir.js';
import { MailComposer, type StartThread } from './mail-composer.js';
import { mailOptions } from './nodemailer-mailer.js';
import { OutboxFolderMailer } from './outbox-folder-mailer.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../../../..');

const message = (i: number): OutgoingEmail => ({
  from: 'Fundi Academy <no-reply@fundi.example>',
  to: `Learner ${i} <learner${i}@example.org>`,
  subject: `Welcome, learner ${i}`,
  html: `<p>Hi learner ${i},</p><p>Welcome to Fundi Academy.</p>`,
  text: `Hi learner ${i},\n\nWelcome to Fundi Academy.\n`,
  headers: { 'X-Fundi-Notification': `ntf_${i}` },
});

/** Starts real threads and keeps each, so a test can kill one. */
function keptThreads(): { start: StartThread; threads: Worker[] } {
  const threads: Worker[] = [];
  return { threads, start: (code, options) => threads[threads.push(new Worker(code, options)) - 1]! };
}

/** Sends messages 0..n-1 at once; checks that each is a whole .eml file of its own, under the Message-ID returned. */
async function sendAll(mailer: OutboxFolderMailer, n: number, midway?: () => Promise<void>): Promise<void> {
  const sends = Array.from({ length: n }, (_, i) => mailer.send(message(i)));
  await midway?.();
  const results = await Promise.all(sends);
  const files = readdirSync(mailer.folder);
  expect(files.filter((f) => f.endsWith('.tmp'))).toEqual([]);
  expect(files).toHaveLength(n);
  const seen = new Map<string, string>();
  for (const f of files) {
    const raw = readFileSync(join(mailer.folder, f));
    expect(raw.toString('latin1')).not.toMatch(/[^\r]\n/);
    const m = await simpleParser(raw);
    const i = Number(m.headers.get('x-fundi-notification')?.toString().slice(4));
    expect(m.to && !Array.isArray(m.to) ? m.to.value[0]?.address : null).toBe(`learner${i}@example.org`);
    expect(m.subject).toBe(`Welcome, learner ${i}`);
    expect(m.text).toBe(`Hi learner ${i},\n\nWelcome to Fundi Academy.\n`);
    expect(m.html).toContain(`<p>Hi learner ${i},</p>`);
    seen.set(m.messageId!, `ntf_${i}`);
  }
  expect(seen.size).toBe(n);
  results.forEach((r, i) => {
    if (!r.ok) throw new Error(`message ${i}: ${r.failure.detail}`);
    expect(seen.get(r.messageId)).toBe(`ntf_${i}`);
    expect(r.accepted).toEqual([`learner${i}@example.org`]);
  });
}

describe('MailComposer', () => {
  it('composes on its one thread, many messages at once, each a whole .eml file of its own', async () => {
    const { start, threads } = keptThreads();
    const composer = new MailComposer(start);
    const mailer = new OutboxFolderMailer(scratchDir('fundi-composer-'), composer);
    try {
      await sendAll(mailer, 200);
      expect(composer.composed).toEqual({ onThread: 200, inProcess: 0 });
      expect(threads).toHaveLength(1);
      await sendAll(new OutboxFolderMailer(scratchDir('fundi-composer-'), composer), 50);
      expect(composer.composed).toEqual({ onThread: 250, inProcess: 0 });
      expect(threads).toHaveLength(1);
    } finally {
      await mailer.close();
    }
  });

  it('composes the same message on the thread as in-process', async () => {
    const threaded = new MailComposer();
    const here = new MailComposer(() => {
      throw new Error('no threads here');
    });
    try {
      const options = mailOptions(message(7));
      const [a, b] = await Promise.all([threaded.compose(options), here.compose(options)]);
      expect(threaded.composed.onThread).toBe(1);
      expect(here.composed.inProcess).toBe(1);
      // Only the Message-ID, the date and the random MIME boundaries differ.
      const plain = (c: { message: Buffer; messageId: string }) => {
        const s = c.message.toString('latin1');
        const boundary = /boundary="([^"]+)"/.exec(s)?.[1];
        expect(boundary).toBeTruthy();
        return s
          .split(boundary!)
          .join('BOUNDARY')
          .replace(c.messageId, '<ID>')
          .replace(/^Date: .*$/m, 'Date: -');
      };
      expect(plain(a)).toBe(plain(b));
      expect(a.message.byteLength).toBeGreaterThan(300);
    } finally {
      await threaded.close();
      await here.close();
    }
  });

  it('composes in-process when the thread cannot start, or dies as it starts', async () => {
    const refused = new MailComposer(() => {
      throw new Error('no threads here');
    });
    await sendAll(new OutboxFolderMailer(scratchDir('fundi-composer-'), refused), 20);
    expect(refused.composed).toEqual({ onThread: 0, inProcess: 20 });
    expect(refused.mode).toBe('in-process');

    const dying = new MailComposer((_code, options) => new Worker('throw new Error("broken")', options));
    await sendAll(new OutboxFolderMailer(scratchDir('fundi-composer-'), dying), 20);
    expect(dying.composed).toEqual({ onThread: 0, inProcess: 20 });
    expect(dying.mode).toBe('in-process');
  });

  it('loses no message when its thread dies with messages on it', async () => {
    const { start, threads } = keptThreads();
    const composer = new MailComposer(start);
    const mailer = new OutboxFolderMailer(scratchDir('fundi-composer-'), composer);
    const n = 400;
    let held = 0;
    await sendAll(mailer, n, async () => {
      while (composer.composed.onThread === 0) await new Promise((r) => setTimeout(r, 1));
      held = composer.inFlight;
      await threads[0]!.terminate();
    });
    // Messages were waiting for the thread when it died; they were composed here (answers already on their way
    // while it was terminated may still have come from the thread), and every message was written exactly once.
    expect(held).toBeGreaterThan(n / 2);
    const { onThread, inProcess } = composer.composed;
    expect(onThread).toBeGreaterThan(0);
    expect(inProcess).toBeGreaterThan(0);
    expect(onThread + inProcess).toBe(n);
    expect(composer.mode).toBe('in-process');
    expect(threads).toHaveLength(1);
  });

  it('close() stops the thread; later messages are composed in-process', async () => {
    const { start, threads } = keptThreads();
    const composer = new MailComposer(start);
    const mailer = new OutboxFolderMailer(scratchDir('fundi-composer-'), composer);
    expect(threads).toHaveLength(0);
    await mailer.send(message(1));
    const exited = new Promise<number>((ok) => threads[0]!.once('exit', ok));
    await mailer.close();
    await exited;
    expect(threads[0]!.threadId).toBe(-1);
    await expect(mailer.send(message(2))).resolves.toMatchObject({ ok: true });
    expect(composer.composed).toEqual({ onThread: 1, inProcess: 1 });
    expect(composer.mode).toBe('closed');
    expect(threads).toHaveLength(1);
  });

  it('keeps a process alive for a send on the thread, then lets it exit, with or without close() (dist)', async () => {
    const dir = scratchDir('fundi-composer-');
    const mailer = join(ROOT, 'packages/adapters/dist/notifications/outbox-folder-mailer.js');
    const run = async (close: boolean) => {
      // The send is not awaited: only the thread keeps the process alive until its answer comes.
      const script = `
        import { OutboxFolderMailer } from ${JSON.stringify(mailer)};
        const m = new OutboxFolderMailer(process.argv[1]);
        m.send(${JSON.stringify(message(close ? 2 : 1))}).then(async (r) => {
          ${close ? 'await m.close();' : ''}
          console.log(JSON.stringify({ ok: r.ok, mode: m.composer.mode, composed: m.composer.composed }));
        });`;
      const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script, dir], {
        timeout: 15_000,
      });
      return JSON.parse(stdout);
    };
    expect(await run(false)).toEqual({ ok: true, mode: 'thread', composed: { onThread: 1, inProcess: 0 } });
    expect(await run(true)).toEqual({ ok: true, mode: 'closed', composed: { onThread: 1, inProcess: 0 } });
    expect(readdirSync(dir).filter((f) => f.endsWith('.eml'))).toHaveLength(2);
  });
});
