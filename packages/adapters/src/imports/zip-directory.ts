import { Readable } from 'node:stream';
import { createInflateRaw, inflateRawSync } from 'node:zlib';

/** A file of a ZIP archive, as its central directory lists it. */
export interface ZipEntry {
  name: string;
  method: number;
  flags: number;
  compressedSize: number;
  localOffset: number;
}

/** A ZIP that cannot be read on (cut off, broken, encrypted, a method other than stored or deflate). */
export class ZipFault extends Error {}

/**
 * The bytes of a ZIP, read by range: a file held in memory, or a stored file opened at an offset, so that a
 * workbook is read from its end and a part from where it stands without the whole file held.
 */
export interface ZipBytes {
  readonly size: number;
  /** The bytes from `start` up to `end` (not included), a chunk at a time. */
  chunks(start: number, end: number): AsyncIterable<Buffer>;
}

/** A ZIP held whole in memory. */
export const heldZip = (zip: Buffer): ZipBytes => ({
  size: zip.length,
  async *chunks(start, end) {
    if (end > start) yield zip.subarray(start, end);
  },
});

/** A stored file of `size` bytes whose ranges open as streams (`end` included, as the file store counts). */
export const storedZip = (
  size: number,
  open: (range: { start: number; end: number }) => Promise<Readable>,
): ZipBytes => ({
  size,
  async *chunks(start, end) {
    if (end <= start) return;
    for await (const c of await open({ start, end: end - 1 })) yield Buffer.isBuffer(c) ? c : Buffer.from(c);
  },
});

/** The bytes from `start` up to `end`, in one Buffer (a small part, a header, the central directory). */
async function bytesAt(zip: ZipBytes, start: number, end: number): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of zip.chunks(start, end)) parts.push(c);
  const b = parts.length === 1 ? parts[0]! : Buffer.concat(parts);
  if (b.length !== end - start) throw new ZipFault('it is cut off');
  return b;
}

/** The end of a ZIP that holds its central directory's end record: the record, and at most 64 KB of comment. */
const END_BYTES = 22 + 0xffff;

/**
 * The ZIP with its end (the last 64 KB) read once and held: the directory and, in a workbook written as exceljs
 * writes one, the workbook's small parts are read from it without opening the file again for each.
 */
export async function endHeld(zip: ZipBytes): Promise<ZipBytes> {
  const from = Math.max(0, zip.size - END_BYTES);
  const end = await bytesAt(zip, from, zip.size);
  return {
    size: zip.size,
    async *chunks(start, stop) {
      if (start < from) yield* zip.chunks(start, stop);
      else if (stop > start) yield end.subarray(start - from, stop - from);
    },
  };
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

/**
 * The entries of a ZIP (an .xlsx is at most the upload limit, 50 MB), read from its central directory at the end:
 * the workbook's parts can then be read in any order, whatever order the writer put them in. Only the end (at most
 * 64 KB of comment and the directory's end record) and the directory itself are read.
 */
export async function zipEntries(zip: ZipBytes): Promise<Map<string, ZipEntry>> {
  const from = Math.max(0, zip.size - END_BYTES);
  const tail = await bytesAt(zip, from, zip.size);
  let end = -1;
  for (let i = tail.length - 22; i >= 0; i--)
    if (tail.readUInt32LE(i) === EOCD) {
      end = i;
      break;
    }
  if (end < 0) throw new ZipFault('its end (the ZIP central directory) is missing: is the file cut off?');
  const count = tail.readUInt16LE(end + 10);
  const length = tail.readUInt32LE(end + 12);
  const offset = tail.readUInt32LE(end + 16);
  if (count === 0xffff || offset === 0xffffffff) throw new ZipFault('it is a ZIP64 archive, which is not read');
  // The directory as the end record places it; a writer that left its length 0 has it run up to the end record.
  const stop = length > 0 ? offset + length : from + end;
  if (offset > from + end || stop > from + end) throw new ZipFault('its ZIP central directory is broken');
  const dir = offset >= from ? tail.subarray(offset - from, stop - from) : await bytesAt(zip, offset, stop);
  const entries = new Map<string, ZipEntry>();
  let at = 0;
  for (let n = 0; n < count; n++) {
    if (at + 46 > dir.length || dir.readUInt32LE(at) !== CENTRAL)
      throw new ZipFault('its ZIP central directory is broken');
    const nameLength = dir.readUInt16LE(at + 28);
    const entry: ZipEntry = {
      name: dir.toString('utf8', at + 46, at + 46 + nameLength),
      flags: dir.readUInt16LE(at + 8),
      method: dir.readUInt16LE(at + 10),
      compressedSize: dir.readUInt32LE(at + 20),
      localOffset: dir.readUInt32LE(at + 42),
    };
    if (entry.compressedSize === 0xffffffff || entry.localOffset === 0xffffffff)
      throw new ZipFault('it is a ZIP64 archive, which is not read');
    entries.set(entry.name, entry);
    at += 46 + nameLength + dir.readUInt16LE(at + 30) + dir.readUInt16LE(at + 32);
  }
  return entries;
}

/** Where an entry's compressed bytes start and end (after its local header). */
async function dataOf(zip: ZipBytes, e: ZipEntry): Promise<{ start: number; end: number }> {
  if (e.flags & 1) throw new ZipFault(`its part ${e.name} is encrypted`);
  if (e.method !== 0 && e.method !== 8) throw new ZipFault(`its part ${e.name} is compressed with method ${e.method}`);
  const at = e.localOffset;
  if (at + 30 > zip.size) throw new ZipFault(`its part ${e.name} is broken`);
  const local = await bytesAt(zip, at, at + 30);
  if (local.readUInt32LE(0) !== LOCAL) throw new ZipFault(`its part ${e.name} is broken`);
  const start = at + 30 + local.readUInt16LE(26) + local.readUInt16LE(28);
  if (start + e.compressedSize > zip.size) throw new ZipFault(`its part ${e.name} is cut off`);
  return { start, end: start + e.compressedSize };
}

const inflateFault = (e: ZipEntry, err: unknown) =>
  new ZipFault(`its part ${e.name} cannot be inflated: ${err instanceof Error ? err.message : String(err)}`);

/** A small part (workbook, relationships, styles) as text, inflated at once. */
export async function entryText(zip: ZipBytes, e: ZipEntry): Promise<string> {
  const { start, end } = await dataOf(zip, e);
  const raw = await bytesAt(zip, start, end);
  try {
    return (e.method === 0 ? raw : inflateRawSync(raw)).toString('utf8');
  } catch (err) {
    throw inflateFault(e, err);
  }
}

/** How much of a part is inflated at a time. */
export const CHUNK_BYTES = 256 * 1024;

/**
 * A part inflated as it is read, `chunkBytes` at a time (a sheet's XML is several times the file; the shared
 * strings part of 100,000 learners is 18 MB); zlib's smallest chunk is 64 bytes, a stored part's is one byte. Its
 * compressed bytes are read as they are inflated. A fault reading the file itself (not the ZIP) is thrown as it is.
 */
export async function* entryChunks(zip: ZipBytes, e: ZipEntry, chunkBytes = CHUNK_BYTES): AsyncGenerator<Buffer> {
  const { start, end } = await dataOf(zip, e);
  if (e.method === 0) {
    for await (const c of zip.chunks(start, end))
      for (let i = 0; i < c.length; i += chunkBytes) yield c.subarray(i, i + chunkBytes);
    return;
  }
  // A fault of the file's own stream (the file store), told apart from a fault inflating what it gave.
  const read: { fault?: { error: unknown } } = {};
  const input = Readable.from(zip.chunks(start, end));
  const inflate = createInflateRaw({ chunkSize: Math.max(64, chunkBytes) });
  input.on('error', (err) => {
    read.fault = { error: err };
    inflate.destroy(err);
  });
  input.pipe(inflate);
  try {
    for await (const chunk of inflate) yield chunk as Buffer;
  } catch (err) {
    if (read.fault) throw read.fault.error;
    throw inflateFault(e, err);
  } finally {
    input.destroy();
    inflate.destroy();
  }
}
