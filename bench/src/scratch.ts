import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A new directory under the system's temporary directory, removed when this process exits (the bench servers exit
 * on SIGTERM through `process.exit`). A bench run writes gigabytes there: a 100,000-learner import alone leaves
 * a few hundred megabytes of database, WAL and mail.
 */
export function scratchDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
