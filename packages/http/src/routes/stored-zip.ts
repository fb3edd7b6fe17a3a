import { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';

/** A file of a ZIP: its path in the archive and its bytes, opened when its turn comes. */
export interface ZipEntry {
  name: string;
  open(): Promise<Readable>;
}

const MAX32 = 0xffffffff;
/** General purpose flags: sizes and CRC in a data descriptor after the bytes (bit 3), UTF-8 names (bit 11). */
const FLAGS = 0x0808;
const DESCRIPTOR = 16;

function dosTime(d: Date): { time: number; date: number } {
  return {
    time: (d.getHours() << 11) | (d.getMinutes() << 5) | Math.floor(d.getSeconds() / 2),
    date: (Math.max(0, d.getFullYear() - 1980) << 9) | ((d.getMonth() + 1) << 5) | d.getDate(),
  };
}

function localHeader(name: Buffer, t: { time: number; date: number }): Buffer {
  const h = Buffer.alloc(30 + name.length);
  h.writeUInt32LE(0x04034b50, 0);
  h.writeUInt16LE(20, 4);
  h.writeUInt16LE(FLAGS, 6);
  h.writeUInt16LE(0, 8);
  h.writeUInt16LE(t.time, 10);
  h.writeUInt16LE(t.date, 12);
  // CRC and sizes (14-25) are zero here: the data descriptor carries them.
  h.writeUInt16LE(name.length, 26);
  h.writeUInt16LE(0, 28);
  name.copy(h, 30);
  return h;
}

function descriptor(crc: number, size: number): Buffer {
  const d = Buffer.alloc(DESCRIPTOR);
  d.writeUInt32LE(0x08074b50, 0);
  d.writeUInt32LE(crc, 4);
  d.writeUInt32LE(size, 8);
  d.writeUInt32LE(size, 12);
  return d;
}

/** A central directory entry; an offset past 4 GB goes in a Zip64 extra field. */
function centralHeader(name: Buffer, t: { time: number; date: number }, crc: number, size: number, offset: number) {
  const zip64 = offset >= MAX32;
  const extra = zip64 ? 12 : 0;
  const h = Buffer.alloc(46 + name.length + extra);
  h.writeUInt32LE(0x02014b50, 0);
  // Made by Unix (so the external attributes are a file mode), version 2.0 (4.5 with Zip64).
  h.writeUInt16LE((3 << 8) | (zip64 ? 45 : 20), 4);
  h.writeUInt16LE(zip64 ? 45 : 20, 6);
  h.writeUInt16LE(FLAGS, 8);
  h.writeUInt16LE(0, 10);
  h.writeUInt16LE(t.time, 12);
  h.writeUInt16LE(t.date, 14);
  h.writeUInt32LE(crc, 16);
  h.writeUInt32LE(size, 20);
  h.writeUInt32LE(size, 24);
  h.writeUInt16LE(name.length, 28);
  h.writeUInt16LE(extra, 30);
  // Comment length, disk number and internal attributes (32-37) stay zero; a regular file, rw-r--r--.
  h.writeUInt32LE((0o100644 << 16) >>> 0, 38);
  h.writeUInt32LE(zip64 ? MAX32 : offset, 42);
  name.copy(h, 46);
  if (zip64) {
    const at = 46 + name.length;
    h.writeUInt16LE(0x0001, at);
    h.writeUInt16LE(8, at + 2);
    h.writeBigUInt64LE(BigInt(offset), at + 4);
  }
  return h;
}

/** The end records: Zip64's record and locator first when the directory starts or ends past 4 GB. */
function endRecords(count: number, cdSize: number, cdOffset: number): Buffer {
  const zip64 = cdOffset >= MAX32 || cdOffset + cdSize >= MAX32;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(count, 8);
  end.writeUInt16LE(count, 10);
  end.writeUInt32LE(zip64 ? MAX32 : cdSize, 12);
  end.writeUInt32LE(zip64 ? MAX32 : cdOffset, 16);
  if (!zip64) return end;
  const record = Buffer.alloc(56);
  record.writeUInt32LE(0x06064b50, 0);
  record.writeBigUInt64LE(44n, 4);
  record.writeUInt16LE(45, 12);
  record.writeUInt16LE(45, 14);
  record.writeBigUInt64LE(BigInt(count), 24);
  record.writeBigUInt64LE(BigInt(count), 32);
  record.writeBigUInt64LE(BigInt(cdSize), 40);
  record.writeBigUInt64LE(BigInt(cdOffset), 48);
  const locator = Buffer.alloc(20);
  locator.writeUInt32LE(0x07064b50, 0);
  locator.writeBigUInt64LE(BigInt(cdOffset + cdSize), 8);
  locator.writeUInt32LE(1, 16);
  return Buffer.concat([record, locator, end]);
}

/**
 * A ZIP written while it is read, its files stored without compression (evidence is mostly compressed media
 * already): each file's bytes are passed on as they come, their CRC-32 taken on the way (zlib's, in C), with a
 * data descriptor after them; the central directory follows the last file. Memory stays flat whatever the count,
 * and the length is `storedZipSize` of the files up to 4 GB (Zip64 records past it). The next file is opened while
 * the current one is written, so the store's latency does not add up. A file that fails fails the stream.
 */
export function storedZip(entries: readonly ZipEntry[], now: Date = new Date()): Readable {
  const t = dosTime(now);
  let current: Readable | null = null;
  let next: Promise<Readable> | null = null;
  const opened = (i: number): Promise<Readable> | null => {
    if (i >= entries.length) return null;
    const p = entries[i]!.open();
    // Met when awaited; this only keeps a failure of a file never reached from going unhandled.
    p.catch(() => {});
    return p;
  };
  async function* parts(): AsyncGenerator<Buffer> {
    const central: Buffer[] = [];
    let offset = 0;
    try {
      next = opened(0);
      for (let i = 0; i < entries.length; i++) {
        current = await next!;
        next = opened(i + 1);
        const name = Buffer.from(entries[i]!.name, 'utf8');
        const local = localHeader(name, t);
        yield local;
        let crc = 0;
        let size = 0;
        for await (const chunk of current) {
          const c = chunk as Buffer;
          crc = crc32(c, crc);
          size += c.length;
          yield c;
        }
        current = null;
        if (size >= MAX32) throw new Error(`${entries[i]!.name} is too large for a ZIP entry without Zip64 sizes`);
        yield descriptor(crc, size);
        central.push(centralHeader(name, t, crc, size, offset));
        offset += local.length + size + DESCRIPTOR;
      }
      const directory = Buffer.concat(central);
      yield directory;
      yield endRecords(entries.length, directory.length, offset);
    } finally {
      // Stopped early (the client went away, or a file failed): nothing opened stays open.
      (current as Readable | null)?.destroy();
      void next?.then(
        (s) => s.destroy(),
        () => {},
      );
    }
  }
  return Readable.from(parts(), { objectMode: false, highWaterMark: 256 * 1024 });
}
