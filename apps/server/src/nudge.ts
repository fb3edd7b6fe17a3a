import type { Server } from 'node:http';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * When the API and the worker share a process (the embedded default), a successful write wakes the worker at
 * once instead of at its next poll: events committed by the request are fanned out within milliseconds. Other
 * processes' commits are still found by polling.
 */
export function nudgeOnWrites(server: Server, worker: { nudge(): void }): void {
  server.on('request', (req, res) => {
    if (!WRITES.has(req.method ?? '')) return;
    res.once('finish', () => {
      if (res.statusCode < 300) worker.nudge();
    });
  });
}
