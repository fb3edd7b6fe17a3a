import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { SMTPServer } from 'smtp-server';
import { Agent, request } from 'undici';
import { BENCH_DIR } from './harness.js';

/** The notifications bench's receivers (an SMTP sink, a WhatsApp Cloud API sink) and its raw baselines. */

// The raw loop must use the very nodemailer the service sends with (the adapters' own copy): another version in
// the tree pools far slower and would flatter the service.
const nodemailer = createRequire(join(BENCH_DIR, '../../packages/adapters/package.json'))(
  'nodemailer',
) as typeof import('nodemailer');

export const N = Number(process.env.BENCH_NOTIFICATIONS ?? 10_000);

/** A loopback SMTP server that accepts everything and counts what arrives (nothing kept). */
export interface SmtpSink {
  port: number;
  count: number;
  waitFor(n: number, ms: number): Promise<void>;
  close(): Promise<void>;
}

export async function smtpSink(): Promise<SmtpSink> {
  let waiters: { n: number; ok: () => void }[] = [];
  const sink: SmtpSink = {
    port: 0,
    count: 0,
    waitFor(n, ms) {
      if (sink.count >= n) return Promise.resolve();
      return new Promise((ok, fail) => {
        const t = setTimeout(() => fail(new Error(`only ${sink.count} of ${n} messages arrived in ${ms} ms`)), ms);
        waiters.push({
          n,
          ok: () => {
            clearTimeout(t);
            ok();
          },
        });
      });
    },
    close: () => new Promise((ok) => server.close(() => ok())),
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    size: 10 * 1024 * 1024,
    onData(stream, _session, done) {
      stream.on('data', () => {});
      stream.on('end', () => {
        sink.count++;
        for (const w of waiters) if (sink.count >= w.n) w.ok();
        waiters = waiters.filter((w) => sink.count < w.n);
        done();
      });
    },
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  sink.port = (server.server.address() as AddressInfo).port;
  return sink;
}

/** A loopback server answering like the WhatsApp Cloud API (a message id per message), counting requests. */
export async function cloudSink(): Promise<{ url: string; count: () => number; close(): Promise<void> }> {
  let count = 0;
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      count++;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          messaging_product: 'whatsapp',
          contacts: [{ input: 'x', wa_id: 'x' }],
          messages: [{ id: `wamid.${count}` }],
        }),
      );
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    count: () => count,
    close: () =>
      new Promise((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

export const MESSAGE = {
  from: 'Bench Academy <no-reply@bench.example>',
  subject: 'Your logbook was approved',
  html: '<p>Hi Thandi,</p>\n<p>Your logbook for Module 2: Workplace safety was approved.</p>\n<p>Bench Academy</p>',
  text: 'Hi Thandi,\n\nYour logbook for Module 2: Workplace safety was approved.\n\n-- \nBench Academy\n',
};

export async function pool<T>(n: number, width: number, f: (i: number) => Promise<T>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < n) await f(next++);
    }),
  );
}

/**
 * This process's CPU since `from` per message (µs), loopback server included, and its share of the `ms` the messages
 * took (busy; all its threads, so the collector's helpers can take it past 100%): well below 100% the process waits,
 * on the database or, on a loaded machine, for a core.
 */
export function cpuPerMessage(from: NodeJS.CpuUsage, ms: number): Cpu {
  const c = process.cpuUsage(from);
  const us = c.user + c.system;
  return { us: Math.round(us / N), busy: Math.round(us / (ms * 10)) };
}

/** CPU per message (µs) and the share of the elapsed time the process was busy (%), `cpuPerMessage`. */
export interface Cpu {
  us: number;
  busy: number;
}

/** The baseline: a pooled nodemailer transport (5 connections, like the service's) sending the same messages. */
export async function rawMail(sink: SmtpSink): Promise<{ rate: number; cpu: Cpu }> {
  const t = nodemailer.createTransport({
    host: '127.0.0.1',
    port: sink.port,
    pool: true,
    maxConnections: 5,
    ignoreTLS: true,
  });
  const before = sink.count;
  const started = performance.now();
  const cpu0 = process.cpuUsage();
  await pool(N, 64, (i) =>
    t.sendMail({ ...MESSAGE, to: `bench${i}@example.org`, headers: { 'X-Fundi-Notification': `raw_${i}` } }),
  );
  await sink.waitFor(before + N, 120_000);
  const ms = performance.now() - started;
  const cpu = cpuPerMessage(cpu0, ms);
  const rate = (N * 1000) / ms;
  t.close();
  return { rate, cpu };
}

/** The baseline: undici posting the same template messages with keep-alive. */
export async function rawWhatsApp(url: string): Promise<{ rate: number; cpu: Cpu }> {
  const agent = new Agent({ connections: 16, keepAliveTimeout: 30_000 });
  const started = performance.now();
  const cpu0 = process.cpuUsage();
  await pool(N, 64, async (i) => {
    const r = await request(`${url}/v21.0/123456/messages`, {
      method: 'POST',
      dispatcher: agent,
      headers: { authorization: 'Bearer bench-token-123', 'content-type': 'application/json' },
      body: JSON.stringify({
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to: `+2782${String(1000000 + i).slice(-7)}`,
        type: 'template',
        template: {
          name: 'assessment_result',
          language: { code: 'en' },
          components: [
            {
              type: 'body',
              parameters: ['Thandi', 'Workplace safety', 'competent'].map((text) => ({ type: 'text', text })),
            },
          ],
        },
      }),
    });
    await r.body.text();
  });
  const ms = performance.now() - started;
  const cpu = cpuPerMessage(cpu0, ms);
  const rate = (N * 1000) / ms;
  await agent.close();
  return { rate, cpu };
}
