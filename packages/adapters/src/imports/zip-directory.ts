import { inflateRawSync, createInflateRaw } from 'node:zlib';

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

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

/**
 * The entries of a ZIP held whole in memory (an .xlsx is at most the upload limit, 50 MB), read from its central
 * directory at the end: the workbook's parts can then be read in any order, whatever order the writer put them in.
 */
export function zipEntries(zip: Buffer): Map<string, ZipEntry> {
  let end = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 0xffff); i--)
    if (zip.readUInt32LE(i) === EOCD) {
      end = i;
      break;
    }
  if (end < 0) throw new ZipFault('its end (the ZIP central directory) is missing: is the file cut off?');
  const count = zip.readUInt16LE(end + 10);
  const offset = zip.readUInt32LE(end + 16);
  if (count === 0xffff || offset === 0xffffffff) throw new ZipFault('it is a ZIP64 archive, which is not read');
  const entries = new Map<string, ZipEntry>();
  let at = offset;
  for (let n = 0; n < count; n++) {
    if (at + 46 > zip.length || zip.readUInt32LE(at) !== CENTRAL)
      throw new ZipFault('its ZIP central directory is broken');
    const nameLength = zip.readUInt16LE(at + 28);
    const entry: ZipEntry = {
      name: zip.toString('utf8', at + 46, at + 46 + nameLength),
      flags: zip.readUInt16LE(at + 8),
      method: zip.readUInt16LE(at + 10),
      compressedSize: zip.readUInt32LE(at + 20),
      localOffset: zip.readUInt32LE(at + 42),
    };
    if (entry.compressedSize === 0xffffffff || entry.localOffset === 0xffffffff)
      throw new ZipFault('it is a ZIP64 archive, which is not read');
    entries.set(entry.name, entry);
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return entries;
}

/** The compressed bytes of an entry (after its local header). */
function rawBytes(zip: Buffer, e: ZipEntry): Buffer {
  if (e.flags & 1) throw new ZipFault(`its part ${e.name} is encrypted`);
  if (e.method !== 0 && e.method !== 8) throw new ZipFault(`its part ${e.name} is compressed with method ${e.method}`);
  const at = e.localOffset;
  if (at + 30 > zip.length || zip.readUInt32LE(at) !== LOCAL) throw new ZipFault(`its part ${e.name} is broken`);
  const start = at + 30 + zip.readUInt16LE(at + 26) + zip.readUInt16LE(at + 28);
  if (start + e.compressedSize > zip.length) throw new ZipFault(`its part ${e.name} is cut off`);
  return zip.subarray(start, start + e.compressedSize);
}

/** A small part (workbook, relationships, styles) as text, inflated at once. */
export function entryText(zip: Buffer, e: ZipEntry): string {
  const raw = rawBytes(zip, e);
  try {
    return (e.method === 0 ? raw : inflateRawSync(raw)).toString('utf8');
  } catch (err) {
    throw new ZipFault(`its part ${e.name} cannot be inflated: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** How much of a part is inflated at a time. */
export const CHUNK_BYTES = 256 * 1024;

/**
 * A part inflated as it is read, `chunkBytes` at a time (a sheet's XML is several times the file; the shared
 * strings part of 100,000 learners is 18 MB); zlib's smallest chunk is 64 bytes, a stored part's is one byte.
 */
export async function* entryChunks(zip: Buffer, e: ZipEntry, chunkBytes = CHUNK_BYTES): AsyncGenerator<Buffer> {
  const raw = rawBytes(zip, e);
  if (e.method === 0) {
    for (let i = 0; i < raw.length; i += chunkBytes) yield raw.subarray(i, i + chunkBytes);
    return;
  }
  const inflate = createInflateRaw({ chunkSize: Math.max(64, chunkBytes) });
  inflate.end(raw);
  try {
    for await (const chunk of inflate) yield chunk as Buffer;
  } catch (err) {
    throw new ZipFault(`its part ${e.name} cannot be inflated: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    inflate.destroy();
  }
}
