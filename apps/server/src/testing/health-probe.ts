import { Worker } from 'node:worker_threads';

/**
 * What a probe saw: answers, failures, and per wait for an answer its length on the clock and the CPU time the
 * server's main thread spent during it (the five longest of each, longest first; ms).
 */
export interface HealthWaits {
  answers: number;
  failures: number;
  worstMs: number;
  /** The most CPU time the server's main thread (its event loop) used while one question waited. */
  worstBusyMs: number;
  longestMs: number[];
  busiestMs: number[];
}

// Plain JavaScript run on a thread of its own: its timers and sockets keep time while the thread serving the
// requests is busy, so a blocked event loop shows as a long wait. On a loaded machine a wait also grows while the
// server is not given a core at all; the CPU time of the server's main thread during the wait (from /proc, in
// 10 ms ticks) tells the two apart: a loop held by its own work is busy for the whole wait.
const PROBE = `
const { parentPort, workerData } = require('node:worker_threads');
const { readFileSync } = require('node:fs');
const http = require('node:http');
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const stat = '/proc/' + workerData.pid + '/task/' + workerData.pid + '/stat';
const cpuMs = () => {
  const line = readFileSync(stat, 'utf8');
  const f = line.slice(line.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
};
const waits = [];
const busy = [];
let failures = 0;
let since = null;
let stopped = false;
function ask() {
  const started = (since = performance.now());
  const cpu = cpuMs();
  const done = (ok) => {
    waits.push(performance.now() - started);
    busy.push(cpuMs() - cpu);
    if (!ok) failures++;
    since = null;
  };
  http
    .get(workerData.url, { agent }, (res) => {
      res.resume();
      res.on('end', () => done(res.statusCode === 200));
    })
    .on('error', () => done(false));
}
function tick() {
  if (stopped) return;
  if (since === null) ask();
  setTimeout(tick, workerData.everyMs);
}
parentPort.on('message', () => {
  stopped = true;
  if (since !== null) waits.push(performance.now() - since);
  const top = (xs) => [...xs].sort((a, b) => b - a).slice(0, 5).map((x) => Math.round(x));
  parentPort.postMessage({
    answers: waits.length,
    failures,
    worstMs: Math.round(Math.max(0, ...waits)),
    worstBusyMs: Math.max(0, ...busy),
    longestMs: top(waits),
    busiestMs: top(busy),
  });
  agent.destroy();
});
tick();
`;

/**
 * Asks `GET <url>/health` every `everyMs` from a worker thread (a new question once the last is answered) and
 * measures each wait (a question still unanswered at `stop` included), and the CPU time the main thread of process
 * `pid` (the server's event loop) used during it.
 */
export function probeHealth(url: string, pid: number, everyMs = 20): { stop(): Promise<HealthWaits> } {
  const worker = new Worker(PROBE, { eval: true, workerData: { url: `${url}/health`, pid, everyMs } });
  return {
    stop: () =>
      new Promise<HealthWaits>((ok, fail) => {
        worker.once('message', (w: HealthWaits) => {
          void worker.terminate();
          ok(w);
        });
        worker.once('error', fail);
        worker.postMessage('stop');
      }),
  };
}
