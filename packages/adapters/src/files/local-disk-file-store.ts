import { createReadStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DomainError, assertFileKey, type FileStore } from '@fundi/domain';
import { BatchedFileWriter } from './batched-file-writer.js';

/** Where writes in progress live, under the root (a key's segment never starts with a dot, so no key reaches it). */
const TEMP_DIR = '.tmp';
/** A temporary file beside its target, as writes made them before they went to `TEMP_DIR`: `<key>.<12 hex>.part`. */
const BESIDE_TARGET = /\.[0-9a-f]{12}\.part$/;

/**
 * Files under a root directory (the embedded default: `./data/files`). A write goes to a temporary file in
 * `<root>/.tmp` and is renamed into place when complete (one file system, so the rename is atomic): a reader never
 * sees half a file, and what a killed process leaves is in one place for `removeAbandoned`.
 */
export class LocalDiskFileStore implements FileStore {
  private walkedForOldTemporaries = false;

  constructor(private readonly root: string) {}

  private path(key: string): string {
    assertFileKey(key);
    return join(this.root, ...key.split('/'));
  }

  async put(key: string, source: Readable): Promise<{ size: number }> {
    const target = this.path(key);
    const temps = join(this.root, TEMP_DIR);
    await Promise.all([mkdir(dirname(target), { recursive: true }), mkdir(temps, { recursive: true })]);
    const temp = join(temps, `${randomBytes(9).toString('hex')}.part`);
    let size = 0;
    source.on('data', (c: Buffer) => {
      size += c.length;
    });
    try {
      const file = new BatchedFileWriter(temp);
      await pipeline(source, file);
      if (!file.closed) await once(file, 'close');
      await rename(temp, target);
      return { size };
    } catch (e) {
      await rm(temp, { force: true });
      throw e;
    }
  }

  async get(key: string, range?: { start: number; end: number }): Promise<Readable> {
    const path = this.path(key);
    if (!(await this.stat(key))) throw DomainError.notFound('file', key);
    return createReadStream(path, {
      highWaterMark: 256 * 1024,
      ...(range ? { start: range.start, end: range.end } : {}),
    });
  }

  async stat(key: string): Promise<{ size: number } | null> {
    try {
      const s = await stat(this.path(key));
      return s.isFile() ? { size: s.size } : null;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw e;
    }
  }

  /** Also removes the temporary files of writes to the key that a killed process left behind (`<name>.<hex>.part`). */
  async delete(key: string): Promise<void> {
    const target = this.path(key);
    await rm(target, { force: true });
    const name = basename(target);
    let siblings: string[];
    try {
      siblings = await readdir(dirname(target));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw e;
    }
    for (const s of siblings)
      if (s.startsWith(`${name}.`) && s.endsWith('.part')) await rm(join(dirname(target), s), { force: true });
  }

  /**
   * Temporary files in `<root>/.tmp` not written to since `before`. The first call in a process also walks the
   * whole tree once for temporary files left beside their targets by earlier versions (`<key>.<hex>.part`).
   */
  async removeAbandoned(before: Date, limit: number): Promise<number> {
    const found = await names(join(this.root, TEMP_DIR));
    const candidates = found.map((n) => join(this.root, TEMP_DIR, n));
    if (!this.walkedForOldTemporaries) {
      this.walkedForOldTemporaries = true;
      const all = await readdir(this.root, { recursive: true }).catch(() => [] as string[]);
      candidates.push(...all.filter((p) => BESIDE_TARGET.test(p)).map((p) => join(this.root, p)));
    }
    let removed = 0;
    for (const path of candidates) {
      if (removed >= limit) {
        // The batch is full: the next call walks again for what this one did not reach.
        this.walkedForOldTemporaries = false;
        break;
      }
      const s = await stat(path).catch(() => null);
      if (!s?.isFile() || s.mtime >= before) continue;
      await rm(path, { force: true });
      removed++;
    }
    return removed;
  }
}

async function names(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
}
