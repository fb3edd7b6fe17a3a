import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { buildBeforeAll, REPO_ROOT } from '../testing/worker-processes.js';
import { scratchDir } from '../testing/scratch-dir.js';
import { LocalDiskFileStore } from './local-disk-file-store.js';

const HOUR = 3_600_000;
const aged = (path: string, ms: number) => {
  const t = new Date(Date.now() - ms);
  utimesSync(path, t, t);
};

buildBeforeAll();

describe('LocalDiskFileStore: what killed writes leave', () => {
  it('a process killed mid-write leaves its temporary file in .tmp; the sweep removes it once old, never a file', async () => {
    const root = scratchDir('fundi-files-kill-');
    // A child process writes an endless stream through the built store and is killed half-way.
    const script = `import { LocalDiskFileStore } from '@fundi/adapters';
      import { Readable } from 'node:stream';
      const endless = new Readable({ read() { setTimeout(() => this.push(Buffer.alloc(65536, 1)), 5); } });
      process.stdout.write('writing\\n');
      await new LocalDiskFileStore(${JSON.stringify(root)}).put('t/ten_1/evidence/evd_1/v1', endless);`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: REPO_ROOT });
    await new Promise((ok) => child.stdout.once('data', ok));
    const tmp = join(root, '.tmp');
    const deadline = Date.now() + 20_000;
    while (!(existsSync(tmp) && readdirSync(tmp).length > 0)) {
      if (Date.now() > deadline) throw new Error('no temporary file appeared');
      await new Promise((ok) => setTimeout(ok, 20));
    }
    child.kill('SIGKILL');
    await new Promise((ok) => child.once('exit', ok));
    const [left] = readdirSync(tmp);
    expect(left).toMatch(/\.part$/);

    const store = new LocalDiskFileStore(root);
    await store.put('t/ten_1/evidence/evd_2/v1', Readable.from([Buffer.from('kept')]));
    // Young: a write may still be under way. Old: removed; the stored file is never touched.
    expect(await store.removeAbandoned(new Date(Date.now() - HOUR), 100)).toBe(0);
    aged(join(tmp, left!), 2 * HOUR);
    aged(join(root, 't/ten_1/evidence/evd_2/v1'), 2 * HOUR);
    expect(await store.removeAbandoned(new Date(Date.now() - HOUR), 100)).toBe(1);
    expect(readdirSync(tmp)).toEqual([]);
    expect(await store.stat('t/ten_1/evidence/evd_1/v1')).toBeNull();
    expect(await store.stat('t/ten_1/evidence/evd_2/v1')).toEqual({ size: 4 });
  }, 60_000);

  it('removes temporary files left beside their targets by earlier versions, in batches', async () => {
    const root = scratchDir('fundi-files-old-');
    const dir = join(root, 't/ten_1/evidence/evd_1');
    mkdirSync(dir, { recursive: true });
    const old = ['v1.0123456789ab.part', 'v2.ba9876543210.part', 'v3.00000000000a.part'].map((n) => join(dir, n));
    for (const p of old) {
      writeFileSync(p, 'half');
      aged(p, 3 * HOUR);
    }
    writeFileSync(join(dir, 'v4.0123456789ab.part'), 'being written');
    writeFileSync(join(dir, 'v1'), 'a real file');
    aged(join(dir, 'v1'), 3 * HOUR);
    const store = new LocalDiskFileStore(root);
    const before = new Date(Date.now() - HOUR);
    expect(await store.removeAbandoned(before, 2)).toBe(2);
    expect(await store.removeAbandoned(before, 2)).toBe(1);
    expect(await store.removeAbandoned(before, 2)).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(['v1', 'v4.0123456789ab.part']);
  });
});
