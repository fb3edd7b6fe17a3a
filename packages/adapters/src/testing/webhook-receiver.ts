import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/** How the receiver answers: a status, a hang (for timeouts), or a redirect. */
export type ReceiverMode = { status: number; body?: string } | { hang: true } | { redirectTo: string };

export interface TestReceiver {
  url: string;
  port: number;
  received: Received[];
  /** Event ids received, without duplicates. */
  ids(): Set<string>;
  setMode(m: ReceiverMode): void;
  /** Resolves once `n` distinct event ids arrived (or rejects after `ms`). */
  waitFor(n: number, ms?: number): Promise<void>;
  close(): Promise<void>;
}

/** A webhook receiver on 127.0.0.1 (never any other address) that records every request. */
export async function startReceiver(initial: ReceiverMode = { status: 200 }): Promise<TestReceiver> {
  let mode = initial;
  const received: Received[] = [];
  const hanging: ServerResponse[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      if ('hang' in mode) return void hanging.push(res);
      if ('redirectTo' in mode) return void res.writeHead(302, { location: mode.redirectTo }).end();
      res.writeHead(mode.status, { 'content-type': 'text/plain' }).end(mode.body ?? (mode.status < 300 ? 'ok' : `error ${mode.status}`));
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise((ok) => server.once('listening', ok));
  const port = (server.address() as AddressInfo).port;
  const ids = () => new Set(received.map((r) => String(r.headers['webhook-id'])));
  return {
    url: `http://127.0.0.1:${port}/hook`, port, received, ids,
    setMode: (m) => { mode = m; },
    async waitFor(n, ms = 10_000) {
      const deadline = Date.now() + ms;
      while (ids().size < n) {
        if (Date.now() > deadline) throw new Error(`receiver got ${ids().size} of ${n} events within ${ms} ms`);
        await new Promise((ok) => setTimeout(ok, 20));
      }
    },
    async close() {
      for (const r of hanging) r.destroy();
      server.closeAllConnections();
      await new Promise((ok) => server.close(ok));
    },
  };
}
