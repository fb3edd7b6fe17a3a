import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { webhookHeaders } from '@fundi/adapters/webhooks';
import { Agent, request } from 'undici';
import { BENCH_DIR } from './harness.js';

export interface Receiver {
  url: string;
  /** Receipt time of each event id (the first one, if it came twice). */
  seen: Map<string, number>;
  total(): number;
  waitFor(ids: readonly string[], ms: number): Promise<void>;
  stop(): Promise<void>;
}

/** The receiver process, its receipts streamed back line by line. */
export async function startReceiverProcess(): Promise<Receiver> {
  const child: ChildProcess = spawn(process.execPath, [join(BENCH_DIR, 'servers', 'webhook-receiver.js')], {
    stdio: ['ignore', 'ignore', 'inherit', 'pipe'],
  });
  const seen = new Map<string, number>();
  let total = 0;
  const rl = createInterface({ input: child.stdio[3] as NodeJS.ReadableStream });
  const port = await new Promise<number>((ok) => rl.once('line', (l) => ok((JSON.parse(l) as { port: number }).port)));
  rl.on('line', (l) => {
    const [id, at] = l.split(' ');
    total++;
    if (!seen.has(id!)) seen.set(id!, Number(at));
  });
  return {
    url: `http://127.0.0.1:${port}/hook`,
    seen,
    total: () => total,
    async waitFor(ids, ms) {
      // Walks the ids once overall (not once per poll), so waiting costs the measured processes no CPU.
      const deadline = Date.now() + ms;
      let i = 0;
      for (;;) {
        while (i < ids.length && seen.has(ids[i]!)) i++;
        if (i === ids.length) return;
        if (Date.now() > deadline) throw new Error(`receiver missing ${ids.length - i}+ events after ${ms} ms`);
        await new Promise((ok) => setTimeout(ok, 2));
      }
    },
    stop: () =>
      new Promise<void>((ok) => {
        child.once('exit', () => ok());
        child.kill('SIGTERM');
      }),
  };
}

/** The body of the baseline loops' `i`th event, a small learner.created. */
function eventBody(id: string, i: number): string {
  return JSON.stringify({
    id,
    type: 'learner.created',
    timestamp: new Date().toISOString(),
    tenantId: 'ten_bench',
    data: { n: i },
  });
}

/** The headers that sign `body` as the dispatcher signs it. */
function signed(url: string, id: string, body: string, secret: string): Record<string, string> {
  return webhookHeaders({
    url,
    eventId: id,
    eventType: 'learner.created',
    timestamp: Math.floor(Date.now() / 1000),
    body,
    secrets: [secret],
  });
}

/** The baseline: a plain loop of signed POSTs with undici, `inFlight` at a time. Returns requests per second. */
export async function plainSignedLoop(url: string, count: number, inFlight: number, secret: string): Promise<number> {
  const agent = new Agent({ connections: inFlight, keepAliveTimeout: 30_000 });
  let next = 0;
  const one = async (i: number) => {
    const id = `evt_baseline_${i}`;
    const body = eventBody(id, i);
    const res = await request(url, { method: 'POST', dispatcher: agent, body, headers: signed(url, id, body, secret) });
    await res.body.text();
  };
  const started = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < count) await one(next++);
    }),
  );
  const rate = count / ((performance.now() - started) / 1000);
  await agent.close();
  return Math.round(rate);
}

/** The same loop with the global fetch, for reference. */
export async function plainFetchLoop(url: string, count: number, inFlight: number, secret: string): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < count) {
        const i = next++;
        const id = `evt_fetch_${i}`;
        const body = eventBody(id, i);
        const res = await fetch(url, { method: 'POST', body, headers: signed(url, id, body, secret) });
        await res.text();
      }
    }),
  );
  return Math.round(count / ((performance.now() - started) / 1000));
}

/**
 * CPU seconds (user + system) a process has used so far, from /proc (Linux); null elsewhere. The bench reports the
 * worker's CPU per delivery beside the rates, because on a shared machine the rates move with other load.
 */
export function cpuSeconds(pid: number | undefined): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}
