import { Readable } from 'node:stream';
import { DomainError, assertFileKey, type FileStore } from '@fundi/domain';

/** Objects in a Map: the file store of the in-memory storage kind. */
export class MemoryFileStore implements FileStore {
  readonly objects = new Map<string, Buffer>();

  async put(key: string, source: Readable): Promise<{ size: number }> {
    assertFileKey(key);
    const chunks: Buffer[] = [];
    for await (const c of source) chunks.push(Buffer.from(c as Uint8Array));
    const all = Buffer.concat(chunks);
    this.objects.set(key, all);
    return { size: all.length };
  }

  async get(key: string, range?: { start: number; end: number }): Promise<Readable> {
    assertFileKey(key);
    const b = this.objects.get(key);
    if (!b) throw DomainError.notFound('file', key);
    return Readable.from([range ? b.subarray(range.start, range.end + 1) : b]);
  }

  async stat(key: string): Promise<{ size: number } | null> {
    assertFileKey(key);
    const b = this.objects.get(key);
    return b ? { size: b.length } : null;
  }

  /** Nothing is ever half-written in memory. */
  async removeAbandoned(): Promise<number> {
    return 0;
  }

  async delete(key: string): Promise<void> {
    assertFileKey(key);
    this.objects.delete(key);
  }
}
