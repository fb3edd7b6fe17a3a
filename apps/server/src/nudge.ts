import type { Server } from 'node:http';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * When the API and the worker share a process (the embedded default), a successful write wakes the worker at
 * once instead of at its next poll: events committed by the request are fanned out within milliseconds. Other
 * processes' commits wake it through the work signal on Postgres, and are found by polling on SQLite.
 */
export function nudgeOnWrites(server: Server, worker: { nudge(): void }): void {
  server.on('request', (req, res) => {
    if (!WRITES.has(req.method ?? '')) return;
    res.once('finish', () => {
      if (res.statusCode < 300) worker.nudge();
    });
  });
}
