import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DomainError, assertFileKey, type FileStore } from '@fundi/domain';

/**
 * Files under a root directory (the embedded default: `./data/files`). A write goes to a temporary file beside
 * its target and is renamed into place when complete, so a reader never sees half a file.
 */
export class LocalDiskFileStore implements FileStore {
  constructor(private readonly root: string) {}

  private path(key: string): string {
    assertFileKey(key);
    return join(this.root, ...key.split('/'));
  }

  async put(key: string, source: Readable): Promise<{ size: number }> {
    const target = this.path(key);
    await mkdir(dirname(target), { recursive: true });
    const temp = `${target}.${randomBytes(6).toString('hex')}.part`;
    let size = 0;
    source.on('data', (c: Buffer) => {
      size += c.length;
    });
    try {
      await pipeline(source, createWriteStream(temp, { flags: 'wx' }));
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
}
