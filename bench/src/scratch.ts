import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dirs: string[] = [];

/**
 * A new directory under the system's temporary directory, removed when this process exits (the bench servers exit
 * on SIGTERM through `process.exit`). A bench run writes gigabytes there: a 100,000-learner import alone leaves
 * a few hundred megabytes of database, WAL and mail. One exit listener removes them all (the notifications bench
 * makes more than ten, past Node's warning for listeners on one event).
 */
export function scratchDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  if (dirs.push(dir) === 1)
    process.on('exit', () => {
      for (const d of dirs) rmSync(d, { recursive: true, force: true });
    });
  return dir;
}
