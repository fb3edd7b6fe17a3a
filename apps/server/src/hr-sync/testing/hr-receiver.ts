import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A plain HTTP receiver on 127.0.0.1 standing in for an HR system: records every POST, answers `status`. */
export async function hrReceiver() {
  const received: Received[] = [];
  const state = { status: 200 };
  const server: Server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(parts).toString('utf8') });
      res.writeHead(state.status, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise((ok) => server.once('listening', ok));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hr/achievements`;
  return {
    url,
    received,
    state,
    /** The bodies (parsed) of one event type, in arrival order. */
    of: (event: string) => received.filter((r) => r.headers['x-webhook-event'] === event),
    async waitFor(pred: () => boolean, ms = 8000) {
      const end = Date.now() + ms;
      while (!pred()) {
        if (Date.now() > end) throw new Error(`receiver: condition not met in ${ms} ms (${received.length} received)`);
        await new Promise((ok) => setTimeout(ok, 20));
      }
    },
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
