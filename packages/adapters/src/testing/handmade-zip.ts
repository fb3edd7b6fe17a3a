import { deflateRawSync } from 'node:zlib';

/**
 * A ZIP of the parts given, written byte by byte for the workbook reader's tests: text deflated (or stored, with
 * `method` 0), a Buffer stored as it is. No CRC: the reader goes by the central directory.
 */
export function handmadeZip(parts: Record<string, string | Buffer>, method: 0 | 8 = 8): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const [name, part] of Object.entries(parts)) {
    const n = Buffer.from(name);
    const stored = Buffer.isBuffer(part) || method === 0;
    const raw = Buffer.isBuffer(part) ? part : Buffer.from(part);
    const data = stored ? raw : deflateRawSync(raw);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(stored ? 0 : 8, 8);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt16LE(n.length, 26);
    const dir = Buffer.alloc(46);
    dir.writeUInt32LE(0x02014b50, 0);
    dir.writeUInt16LE(stored ? 0 : 8, 10);
    dir.writeUInt32LE(data.length, 20);
    dir.writeUInt16LE(n.length, 28);
    dir.writeUInt32LE(offset, 42);
    locals.push(local, n, data);
    central.push(dir, n);
    offset += 30 + n.length + data.length;
  }
  const cd = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(central.length / 2, 8);
  end.writeUInt16LE(central.length / 2, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}
