import { writeSync } from 'node:fs';
import type { Server } from 'node:http';

/** Tells the harness (on fd 3) that the server listens, with whatever fixtures it prepared. */
export function announce(server: Server, info: Record<string, unknown> = {}): void {
  writeSync(3, `${JSON.stringify({ port: (server.address() as { port: number }).port, ...info })}\n`);
  process.on('SIGTERM', () => process.exit(0));
}
