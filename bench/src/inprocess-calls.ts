import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';

export type Callback = (req: IncomingMessage, res: ServerResponse) => unknown;

/** One request through a Koa callback without a socket; resolves when the answer is complete. */
export function call(cb: Callback, url: string, headers: Record<string, string>): Promise<void> {
  return new Promise((ok, fail) => {
    const req = new IncomingMessage(new Socket());
    req.method = 'GET';
    req.url = url;
    req.headers = headers;
    req.push(null);
    const res = new ServerResponse(req);
    res.end = function (this: ServerResponse) {
      if (this.statusCode !== 200) fail(new Error(`${url} answered ${this.statusCode}`));
      else ok();
      return this;
    } as ServerResponse['end'];
    cb(req, res);
  });
}

/**
 * CPU µs per request (user + system of this process) over `n` sequential requests, after n/4 to warm up;
 * `measured` (a profiler's start) runs between the two.
 */
export async function cpuPerRequest(
  cb: Callback,
  url: string,
  headers: Record<string, string>,
  n: number,
  measured?: () => Promise<unknown>,
) {
  // BENCH_INPROC_CONCURRENCY: that many requests in flight at once (as a server under load has), 1 by default.
  const inFlight = Number(process.env.BENCH_INPROC_CONCURRENCY ?? 1);
  const run = async (count: number) => {
    let left = count;
    const loop = async () => {
      while (left-- > 0) await call(cb, url, headers);
    };
    await Promise.all(Array.from({ length: inFlight }, loop));
  };
  await run(n / 4);
  await measured?.();
  const before = process.cpuUsage();
  await run(n);
  const used = process.cpuUsage(before);
  return Math.round(((used.user + used.system) / n) * 10) / 10;
}

/**
 * Three rounds of the learners' GET and list of 100 through `raw` and `fundi` in turns (`listShare`: the list's
 * share of `n` requests), as a markdown table of CPU µs per request and the ratios raw / Fundi.
 */
export async function getAndListRounds(
  handlers: { raw: Callback; fundi: Callback },
  headers: Record<string, string>,
  learnerId: string,
  n: number,
  listShare: number,
): Promise<string> {
  const { raw, fundi } = handlers;
  const lines = [
    '| round | raw GET µs | Fundi GET µs | ratio | raw list µs | Fundi list µs | ratio |',
    '|---|---|---|---|---|---|---|',
  ];
  const get = `/api/v1/learners/${learnerId}`;
  const list = '/api/v1/learners?limit=100';
  for (let round = 1; round <= 3; round++) {
    const rg = await cpuPerRequest(raw, get, headers, n);
    const fg = await cpuPerRequest(fundi, get, headers, n);
    const rl = await cpuPerRequest(raw, list, headers, n * listShare);
    const fl = await cpuPerRequest(fundi, list, headers, n * listShare);
    lines.push(
      `| ${round} | ${rg} | ${fg} | ${((rg / fg) * 100).toFixed(1)}% | ${rl} | ${fl} | ${((rl / fl) * 100).toFixed(1)}% |`,
    );
  }
  return lines.join('\n');
}

/**
 * BENCH_INPROC_ONLY=fundi-list or raw-list: that handler's list of 100 alone, measured by `measure` (CPU µs per
 * request); the line to print, or null when the knob is not set and the usual rounds should run.
 */
export async function listAloneIfAsked(
  handlers: { raw: Callback; fundi: Callback },
  where: string,
  measure: (cb: Callback, url: string) => Promise<number>,
): Promise<string | null> {
  const only = process.env.BENCH_INPROC_ONLY;
  if (only !== 'fundi-list' && only !== 'raw-list') return null;
  const us = await measure(only === 'raw-list' ? handlers.raw : handlers.fundi, '/api/v1/learners?limit=100');
  return `\n${only} on ${where}: ${us} µs of this process per request\n`;
}
