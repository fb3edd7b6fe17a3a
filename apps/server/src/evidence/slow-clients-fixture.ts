import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { until } from '@fundi/adapters/testing';
import { multipart } from './evidence-http-fixture.js';
import type { Server } from '../testing/demo-server-process.js';

/** A PDF of `bytes` bytes: the magic number, filler, the end marker. */
export const pdf = (bytes: number) =>
  Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(bytes - 15, 'x'), Buffer.from('\n%%EOF')]);

const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

/**
 * A client that keeps its connection open after an answer, as browsers and proxies do: only the server's
 * `Connection: close` (or its closing the idle connection) ends it.
 */
const keepAlive = () => new Agent({ keepAlive: true, maxSockets: 1 });

export interface Outcome {
  status: number | null;
  headers: Record<string, unknown>;
  bytes: number;
  error: string | null;
}

/**
 * A Form B multipart upload of `file`, its bytes sent in `chunks` pieces `gapMs` apart. `sent` resolves once
 * `after` pieces are out; `done` with the answer, or with the error that cut it.
 */
export function slowUpload(
  s: Server,
  learnerId: string,
  file: Buffer,
  o: { chunks: number; gapMs: number; after: number },
) {
  const m = multipart(
    { learnerId, moduleId: 'KM-01', evidenceType: 'portfolio' },
    { name: 'portfolio.pdf', data: file },
  );
  let markSent: () => void = () => {};
  const sent = new Promise<void>((ok) => {
    markSent = ok;
  });
  const done = new Promise<Outcome>((resolve) => {
    const req = request(`${s.url}/api/v1/tenants/demo/evidence`, {
      method: 'POST',
      agent: keepAlive(),
      headers: {
        authorization: `Bearer ${s.key}`,
        'content-type': m.type,
        'content-length': String(m.body.length),
      },
    });
    req.on('error', (e) => resolve({ status: null, headers: {}, bytes: 0, error: e.message }));
    req.on('response', (res) => {
      let bytes = 0;
      res.on('data', (c: Buffer) => {
        bytes += c.length;
      });
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, bytes, error: null }));
      res.on('error', (e) => resolve({ status: res.statusCode!, headers: res.headers, bytes, error: e.message }));
    });
    void (async () => {
      const size = Math.ceil(m.body.length / o.chunks);
      for (let i = 0; i < o.chunks; i++) {
        if (req.destroyed) return;
        req.write(m.body.subarray(i * size, (i + 1) * size));
        if (i + 1 === o.after) markSent();
        if (i + 1 < o.chunks) await sleep(o.gapMs);
      }
      req.end();
    })();
  });
  return { sent, done };
}

/**
 * A GET of `path` read slowly: `pauseMs` of rest after every `every` bytes. `reading` resolves once the first
 * bytes are in; `done` with the answer and the bytes read.
 */
export function slowDownload(s: Server, path: string, o: { every: number; pauseMs: number }) {
  let markReading: () => void = () => {};
  const reading = new Promise<void>((ok) => {
    markReading = ok;
  });
  const done = new Promise<Outcome>((resolve) => {
    const req = request(`${s.url}${path}`, { agent: keepAlive() });
    req.on('error', (e) => resolve({ status: null, headers: {}, bytes: 0, error: e.message }));
    req.on('response', (res) => {
      let bytes = 0;
      let sincePause = 0;
      res.on('data', (c: Buffer) => {
        markReading();
        bytes += c.length;
        sincePause += c.length;
        if (sincePause >= o.every) {
          sincePause = 0;
          res.pause();
          setTimeout(() => res.resume(), o.pauseMs);
        }
      });
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, bytes, error: null }));
      res.on('error', (e) => resolve({ status: res.statusCode!, headers: res.headers, bytes, error: e.message }));
    });
    req.end();
  });
  return { reading, done };
}

/** Whether a new connection to the port is refused. */
export const refused = (port: number) =>
  new Promise<boolean>((ok) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      ok(false);
    });
    socket.once('error', (e: NodeJS.ErrnoException) => ok(e.code === 'ECONNREFUSED'));
  });

/**
 * A request whose head is sent up to its last line now, as a load balancer's probe under way would be; `finish()`
 * sends the rest and resolves with the raw answer.
 */
export async function begunRequest(port: number, path: string) {
  const socket = connect(port, '127.0.0.1');
  await new Promise((ok) => socket.once('connect', ok));
  socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n`);
  let raw = '';
  socket.on('data', (c: Buffer) => {
    raw += c.toString('latin1');
  });
  return {
    finish: async () => {
      socket.write('\r\n');
      await until(() => raw.includes('\r\n\r\n') && raw.includes('}'), 10_000, `the answer to ${path}`);
      socket.destroy();
      return raw;
    },
  };
}
