import { writeSync } from 'node:fs';
import { createServer } from 'node:http';

// A webhook receiver in its own process: answers 200 at once and reports each request's event id and receipt
// time (ms since epoch) on fd 3, one "id time" line each, flushed every few milliseconds.
let pending: string[] = [];
setInterval(() => {
  if (pending.length === 0) return;
  const lines = pending.join('');
  pending = [];
  writeSync(3, lines);
}, 2).unref();

const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    pending.push(`${String(req.headers['webhook-id'])} ${Date.now()}\n`);
    res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '2' }).end('ok');
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  writeSync(3, `${JSON.stringify({ port: (server.address() as { port: number }).port })}\n`);
});
process.on('SIGTERM', () => process.exit(0));
