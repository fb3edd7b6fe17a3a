import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { DomainError, type FileStore } from '@fundi/domain';
import { CHUNK, HEADER, type MasterKeyring, makeHeader, openHeader, plaintextSize, TAG } from './encryption-format.js';
import { Decrypt } from './decrypt-stream.js';
import { DecryptWhole } from './decrypt-whole.js';
import { Encrypt } from './encrypt-stream.js';
import type { FileVault, StoreOptions, StoredFile } from './file-vault.js';
import { KIND_LIMITS, SNIFF_BYTES, sniff } from './sniff.js';
import { peek, readAll, readHead } from './stream-heads.js';

// The stored format (header, chunks, keys) lives in encryption-format.ts, the streams that write and read it in
// encrypt-stream.ts, decrypt-stream.ts and decrypt-whole.ts; these names stay importable from here.
export { CHUNK, HEADER, type MasterKey, MasterKeyring, plaintextSize } from './encryption-format.js';

/** Files encrypted with per-file data keys over any `FileStore`, typed by their content. */
export class EncryptedFileVault implements FileVault {
  constructor(
    private readonly files: FileStore,
    private readonly ring: MasterKeyring,
  ) {}

  async store(key: string, source: Readable, o: StoreOptions = {}): Promise<StoredFile> {
    let sniffed: Awaited<ReturnType<typeof sniff>>;
    let whole: Readable;
    try {
      if (o.as) {
        sniffed = o.as;
        whole = source;
      } else {
        const p = await peek(source, SNIFF_BYTES);
        sniffed = await sniff(p.head);
        whole = p.whole;
      }
    } catch (e) {
      source.destroy();
      throw e;
    }
    const limit = Math.min(o.as ? Infinity : KIND_LIMITS[sniffed.kind], o.maxBytes ?? Infinity);
    const dataKey = randomBytes(32);
    const prefix = randomBytes(8);
    const enc = new Encrypt(makeHeader(this.ring.current, dataKey, prefix), dataKey, prefix, () => limit);
    // Failures are read from the promise and `enc.errored`; this listener only keeps an error event from escaping.
    enc.on('error', () => {});
    const failed = (e: unknown) => {
      source.destroy();
      whole.destroy();
      return this.files
        .delete(key)
        .catch(() => {})
        .then(() => {
          throw e;
        });
    };
    try {
      whole.on('error', (e) => enc.destroy(e));
      await this.files.put(key, whole.pipe(enc));
    } catch (e) {
      return failed(
        (e as { code?: string }).code === 'payload_too_large' || e instanceof DomainError
          ? e
          : enc.destroyed && enc.errored
            ? enc.errored
            : e,
      );
    }
    if (enc.errored) return failed(enc.errored);
    if (o.expectSize !== undefined && enc.size !== o.expectSize) {
      return failed(
        DomainError.invalid('file', `has ${enc.size} bytes; the upload declared ${o.expectSize}`, 'size_mismatch'),
      );
    }
    return { size: enc.size, sha256: enc.hash.digest('hex'), contentType: sniffed.contentType, kind: sniffed.kind };
  }

  async open(key: string, range?: { start: number; end: number }): Promise<Readable> {
    if (!range) {
      // The header is checked before the stream is handed out, so a missing master key or a damaged header fails
      // here (an HTTP answer has not started yet), not in the middle of a download.
      const whole = await this.files.get(key);
      openHeader(this.ring, await readHead(whole, HEADER, false));
      const dec = new DecryptWhole(this.ring);
      whole.on('error', (e) => dec.destroy(e));
      return whole.pipe(dec);
    }
    const stat = await this.files.stat(key);
    if (!stat) throw DomainError.notFound('file', key);
    const header = await readAll(await this.files.get(key, { start: 0, end: HEADER - 1 }));
    const { dataKey, prefix } = openHeader(this.ring, header);
    const size = plaintextSize(stat.size);
    const lastIndex = Math.floor(size / CHUNK);
    const start = range?.start ?? 0;
    const end = range ? Math.min(range.end, size - 1) : size - 1;
    const first = Math.floor(start / CHUNK);
    // Reading through the last byte always includes the final chunk (maybe empty), so a cut-off object fails.
    const last = end >= size - 1 ? lastIndex : Math.floor(end / CHUNK);
    // Through the last chunk needed; when that is the file's final (short) chunk, to the end of the object.
    const from = HEADER + first * (CHUNK + TAG);
    const to = last >= lastIndex ? stat.size - 1 : HEADER + (last + 1) * (CHUNK + TAG) - 1;
    const cipher = await this.files.get(key, { start: from, end: to });
    const cut = { skip: start - first * CHUNK, take: size === 0 ? 0 : end - start + 1 };
    const dec = new Decrypt(dataKey, prefix, first, lastIndex, last >= lastIndex, cut);
    cipher.on('error', (e) => dec.destroy(e));
    return cipher.pipe(dec);
  }

  async remove(key: string): Promise<void> {
    await this.files.delete(key);
  }

  /**
   * Re-wraps the data key under the current master key (after a rotation). The store writes whole objects only,
   * so the object is copied with its new header; the encrypted chunks are copied unchanged, never decrypted.
   */
  async rewrap(key: string): Promise<boolean> {
    const header = await readAll(await this.files.get(key, { start: 0, end: HEADER - 1 }));
    if (header.subarray(5, 13).equals(this.ring.current.id)) return false;
    const { dataKey, prefix } = openHeader(this.ring, header);
    const stat = await this.files.stat(key);
    const body = await this.files.get(key, { start: HEADER, end: stat!.size - 1 });
    const tmp = `${key}.rewrap`;
    async function* all(h: Buffer) {
      yield h;
      for await (const c of body) yield c as Buffer;
    }
    await this.files.put(tmp, Readable.from(all(makeHeader(this.ring.current, dataKey, prefix))));
    await this.files.put(key, await this.files.get(tmp));
    await this.files.delete(tmp);
    return true;
  }
}
