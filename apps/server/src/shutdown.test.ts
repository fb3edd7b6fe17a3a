import { createServer, request, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpDrain } from '@fundi/http';
import { describe, expect, it } from 'vitest';
import { closingTime, shutDown, type ShutdownSteps } from './shutdown.js';

/** A logger that keeps its lines: `[level, message, fields]`. */
function logLines() {
  const lines: [string, string, unknown][] = [];
  const at =
    (level: string) =>
    (a: unknown, b?: unknown): void => {
      lines.push(typeof a === 'string' ? [level, a, undefined] : [level, String(b), a]);
    };
  return { lines, logger: { info: at('info'), warn: at('warn'), error: at('error') } };
}

/** A server on 127.0.0.1 whose answers wait until `answer()`, followed by a drain; one request already in flight. */
async function busyServer() {
  const waiting: ServerResponse[] = [];
  const server = createServer((_req, res) => void waiting.push(res));
  const drain = new HttpDrain();
  drain.track(server);
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const answered = new Promise<number | null>((ok) => {
    const req = request({ port: (server.address() as AddressInfo).port, host: '127.0.0.1', path: '/slow?x=1' });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => ok(res.statusCode ?? null));
    });
    req.on('error', () => ok(null));
    req.end();
  });
  while (waiting.length === 0) await new Promise((ok) => setTimeout(ok, 10));
  const answer = () => {
    for (const res of waiting) res.end('done');
  };
  return { drain, answer, answered };
}

const never = new Promise<void>(() => {});

describe('shutDown', () => {
  it('waits for the requests in flight, then stops the worker, then closes, and answers 0', async () => {
    const { lines, logger } = logLines();
    const order: string[] = [];
    const { drain, answer, answered } = await busyServer();
    setTimeout(() => {
      order.push('answered');
      answer();
    }, 200);
    const steps: ShutdownSteps = {
      graceMs: 5000,
      logger,
      http: drain,
      worker: { stop: async () => void order.push('worker') },
      close: async () => void order.push('close'),
      exit: () => {},
    };
    expect(await shutDown(steps, 'SIGTERM')).toBe(0);
    expect(await answered).toBe(200);
    expect(order).toEqual(['answered', 'worker', 'close']);
    expect(lines.map(([, msg]) => msg)).toEqual(['shutting down', 'stopped']);
  });

  it('cuts what outlasts the grace, naming it, and still ends within the grace', async () => {
    const { lines, logger } = logLines();
    const { drain, answered } = await busyServer();
    const graceMs = 1000;
    let workerGrace: number | undefined;
    const started = performance.now();
    const code = await shutDown(
      {
        graceMs,
        logger,
        http: drain,
        worker: {
          stop: (ms) => {
            workerGrace = ms;
            return never;
          },
        },
        close: () => never,
        exit: () => {},
      },
      'SIGTERM',
    );
    expect(code).toBe(1);
    expect(performance.now() - started).toBeLessThan(graceMs + 500);
    expect(await answered).toBeNull();
    expect(workerGrace).toBeLessThanOrEqual(graceMs - closingTime(graceMs));
    expect(lines.filter(([level]) => level === 'warn')).toEqual([
      [
        'warn',
        'shutdown grace ran out: requests cut',
        { requests: [{ method: 'GET', path: '/slow', ms: expect.any(Number), stage: 'answering' }] },
      ],
      ['warn', 'shutdown grace ran out: the worker did not stop in time', undefined],
      ['warn', 'shutdown grace ran out: the database did not close in time', undefined],
    ]);
  });
});
