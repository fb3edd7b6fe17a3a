import { once } from 'node:events';
import type { Readable } from 'node:stream';
import { ZipArchive } from 'archiver';

/**
 * A ZIP written while it is read (the exports' `ZipWriter`): entries are opened one after another, deflated, so
 * memory stays flat whatever their size. A failing entry fails the ZIP stream.
 */
export function archiverZip(entries: { name: string; open(): Readable }[]): Readable {
  const zip = new ZipArchive({ zlib: { level: 6 }, highWaterMark: 1024 * 1024 });
  (async () => {
    for (const e of entries) {
      const added = once(zip, 'entry');
      zip.append(e.open(), { name: e.name });
      await added;
    }
    await zip.finalize();
  })().catch((err: unknown) => zip.destroy(err as Error));
  return zip;
}
