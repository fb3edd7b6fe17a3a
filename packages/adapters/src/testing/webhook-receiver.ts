import { afterAll, beforeAll } from 'vitest';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/** How the receiver answers: a status, a hang (for timeouts), or a redirect. */
export type ReceiverMode =
  | { status: number; body?: string; delayMs?: number }
  | { hang: true }
  | { redirectTo: string };

export interface TestReceiver {
  url: string;
  port: number;
  received: Received[];
  /** Event ids that arrived while a request with the same id was still being answered (a double claim). */
  overlaps: string[];
  /** Event ids received, without duplicates. */
  ids(): Set<string>;
  setMode(m: ReceiverMode): void;
  /**
   * Checks every payload received from now on (for example against the OpenAPI document's `webhooks`); a payload
   * with problems makes `waitFor` and `close` throw, so the test that caused it fails.
   */
  validateWith(check: (payload: unknown) => string[]): void;
  /** Problems found by the check, one line each. */
  problems: string[];
  /** Resolves once `n` distinct event ids arrived (or rejects after `ms`). */
  waitFor(n: number, ms?: number): Promise<void>;
  close(): Promise<void>;
}

/** A webhook receiver on 127.0.0.1 (never any other address) that records every request. */
export async function startReceiver(initial: ReceiverMode = { status: 200 }): Promise<TestReceiver> {
  let mode = initial;
  const received: Received[] = [];
  const hanging: ServerResponse[] = [];
  const active = new Set<string>();
  const overlaps: string[] = [];
  const problems: string[] = [];
  let check: ((payload: unknown) => string[]) | null = null;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const m = mode;
      const id = String(req.headers['webhook-id']);
      if (active.has(id)) overlaps.push(id);
      active.add(id);
      const answer = () => {
        active.delete(id);
        const body = Buffer.concat(chunks).toString('utf8');
        received.push({ headers: req.headers, body, at: Date.now() });
        if (check) {
          try {
            problems.push(...check(JSON.parse(body)));
          } catch (e) {
            problems.push(`payload is not JSON: ${(e as Error).message}`);
          }
        }
        if ('hang' in m) return void hanging.push(res);
        if ('redirectTo' in m) return void res.writeHead(302, { location: m.redirectTo }).end();
        res
          .writeHead(m.status, { 'content-type': 'text/plain' })
          .end(m.body ?? (m.status < 300 ? 'ok' : `error ${m.status}`));
      };
      if ('delayMs' in m && m.delayMs) setTimeout(answer, m.delayMs);
      else answer();
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise((ok) => server.once('listening', ok));
  const port = (server.address() as AddressInfo).port;
  const ids = () => new Set(received.map((r) => String(r.headers['webhook-id'])));
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    received,
    overlaps,
    ids,
    problems,
    setMode: (m) => {
      mode = m;
    },
    validateWith: (fn) => {
      check = fn;
    },
    async waitFor(n, ms = 10_000) {
      const deadline = Date.now() + ms;
      const fail = () => {
        if (problems.length) throw new Error(`webhook payloads do not match the document:\n  ${problems.join('\n  ')}`);
      };
      while (ids().size < n) {
        fail();
        if (Date.now() > deadline) throw new Error(`receiver got ${ids().size} of ${n} events within ${ms} ms`);
        await new Promise((ok) => setTimeout(ok, 20));
      }
      fail();
    },
    async close() {
      for (const r of hanging) r.destroy();
      server.closeAllConnections();
      await new Promise((ok) => server.close(ok));
      if (problems.length) throw new Error(`webhook payloads do not match the document:\n  ${problems.join('\n  ')}`);
    },
  };
}

/**
 * A receiver started before a suite's tests and closed after them: the returned function gives it (from inside a
 * test or hook only).
 */
export function receiverForSuite(mode?: ReceiverMode): () => TestReceiver {
  let rx: TestReceiver | undefined;
  beforeAll(async () => {
    rx = await startReceiver(mode);
  });
  afterAll(async () => {
    await rx?.close();
  });
  return () => rx!;
}
