import { createReadStream, createWriteStream, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { copyFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { ZipArchive } from 'archiver';
import { pipeline } from 'node:stream/promises';
import { spawnServer } from './harness.js';

const MB = 1024 * 1024;

/** A file of `size` bytes written `chunk` bytes at a time: each chunk as `make` fills it, the first starting with `head`. */
async function writeChunked(
  path: string,
  size: number,
  chunk: number,
  head: Buffer,
  make: (n: number, left: number) => Buffer,
): Promise<void> {
  let left = size;
  let first = true;
  await pipeline(
    new Readable({
      read() {
        if (left <= 0) return void this.push(null);
        const n = Math.min(left, chunk);
        const c = make(n, left);
        if (first) {
          head.copy(c);
          first = false;
        }
        left -= n;
        this.push(c);
      },
    }),
    createWriteStream(path),
  );
}

/** A PDF of `size` bytes (a real header, then varied filler), written to disk chunk by chunk. */
function makePdf(path: string, size: number): Promise<void> {
  return writeChunked(path, size, 256 * 1024, Buffer.from('%PDF-1.7\n'), (n, left) => {
    const c = Buffer.alloc(n);
    for (let i = 0; i < n; i++) c[i] = 32 + ((i * 7 + left) % 90);
    return c;
  });
}

/** A video-like file (an MP4 `ftyp` box, then filler) of `size` bytes. */
function makeMp4(path: string, size: number): Promise<void> {
  const head = Buffer.from('0000001866747970697 36f6d0000020069736f6d69736f32'.replace(/ /g, ''), 'hex');
  return writeChunked(path, size, 1024 * 1024, head, (n) => Buffer.alloc(n, 7));
}

/** The server's resident and peak resident memory (kB) from /proc. */
function memory(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (k: string) => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

async function timed(times: number, fn: () => Promise<void>): Promise<number> {
  await fn();
  const start = performance.now();
  for (let i = 0; i < times; i++) await fn();
  return (performance.now() - start) / times;
}

async function drain(res: Response): Promise<number> {
  let n = 0;
  for await (const c of res.body!) n += c.length;
  return n;
}

function multipartBody(path: string, fields: Record<string, string>): { body: Readable; type: string; length: number } {
  const b = `----fundibench${Date.now()}`;
  const head = Buffer.from(
    Object.entries(fields)
      .map(([k, v]) => `--${b}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
      .join('') +
      `--${b}\r\nContent-Disposition: form-data; name="file"; filename="evidence.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${b}--\r\n`);
  async function* parts() {
    yield head;
    for await (const c of createReadStream(path, { highWaterMark: 256 * 1024 })) yield c as Buffer;
    yield tail;
  }
  return {
    body: Readable.from(parts()),
    type: `multipart/form-data; boundary=${b}`,
    length: head.length + statSync(path).size + tail.length,
  };
}

const mbps = (bytes: number, ms: number) => bytes / MB / (ms / 1000);

export async function evidenceBench(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'fundi-bench-files-'));
  const file = join(dir, 'ten.pdf');
  const video = join(dir, 'video.mp4');
  await makePdf(file, 10 * MB);
  await makeMp4(video, 100 * MB);
  const size = statSync(file).size;
  const times = Number(process.env.BENCH_FILE_RUNS ?? 10);
  try {
    let k = 0;
    const copyMs = await timed(times, () => copyFile(file, join(dir, `copy-${k++}`)));

    const bare = await spawnServer('bare-koa-files.js');
    let last = '';
    const bareUp = await timed(times, async () => {
      const r = await fetch(`${bare.url}/`, {
        method: 'PUT',
        body: Readable.toWeb(createReadStream(file)) as ReadableStream,
        duplex: 'half',
        headers: { 'content-length': String(size) },
      } as RequestInit);
      last = ((await r.json()) as { name: string }).name;
    });
    const bareDown = await timed(times, async () => void (await drain(await fetch(`${bare.url}/${last}`))));
    await bare.stop();

    const fundi = await spawnServer<{ key: string; learnerId: string }>('fundi-evidence.js');
    const auth = { authorization: `Bearer ${fundi.info.key}` };
    let evidenceId = '';
    const upload = async (path: string) => {
      const m = multipartBody(path, { learnerId: fundi.info.learnerId, moduleId: 'M01', evidenceType: 'portfolio' });
      const r = await fetch(`${fundi.url}/api/v1/evidence`, {
        method: 'POST',
        body: Readable.toWeb(m.body) as ReadableStream,
        duplex: 'half',
        headers: { ...auth, 'content-type': m.type, 'content-length': String(m.length) },
      } as RequestInit);
      if (r.status !== 201) throw new Error(`upload answered ${r.status}: ${await r.text()}`);
      evidenceId = ((await r.json()) as { id: string }).id;
    };
    const download = async () => {
      const g = (await (
        await fetch(`${fundi.url}/api/v1/evidence/${evidenceId}/download`, { headers: auth })
      ).json()) as { url: string };
      const n = await drain(await fetch(g.url));
      if (n <= 0) throw new Error('empty download');
    };
    const fundiUp = await timed(times, () => upload(file));
    const fundiDown = await timed(times, download);

    // Peak memory of the server process for a 100 MB video up and down, against its resident memory before.
    const before = memory(fundi.pid);
    await upload(video);
    await download();
    const after = memory(fundi.pid);

    // 200 files in one ZIP: Fundi streams them decrypting, beside archiver zipping the same plaintext from disk.
    const small = join(dir, 'small.pdf');
    await makePdf(small, 256 * 1024);
    const ids: string[] = [];
    for (let i = 0; i < 200; i++) {
      await upload(small);
      ids.push(evidenceId);
    }
    const zipBytes = 200 * statSync(small).size;
    const rawZipMs = await timed(3, async () => {
      const zip = new ZipArchive({ store: true });
      const sink = new Writable({
        write(_c, _e, done) {
          done();
        },
      });
      const piped = pipeline(zip, sink);
      for (let i = 0; i < 200; i++) zip.append(createReadStream(small), { name: `f${i}.pdf` });
      await zip.finalize();
      await piped;
    });
    const fundiZipMs = await timed(3, async () => {
      const g = (await (
        await fetch(`${fundi.url}/api/v1/evidence/bulk-download`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({ evidenceIds: ids }),
        })
      ).json()) as { url: string };
      const n = await drain(await fetch(g.url));
      if (n < zipBytes) throw new Error(`short ZIP: ${n}`);
    });
    await fundi.stop();

    const rows = [
      ['plain fs copy of the file (disk floor)', mbps(size, copyMs), '', ''],
      ['bare Koa: PUT streamed to a file', mbps(size, bareUp), '', ''],
      ['bare Koa: GET streamed from a file', mbps(size, bareDown), '', ''],
      [
        'Fundi: multipart upload (sniff, encrypt, SQLite record, event)',
        mbps(size, fundiUp),
        `${((bareUp / fundiUp) * 100).toFixed(1)}% of bare Koa PUT`,
        fundiUp <= bareUp / 0.5 ? 'MET (>= 50%)' : 'MISSED (>= 50%)',
      ],
      [
        'Fundi: signed download (decrypt, verify, audit)',
        mbps(size, fundiDown),
        `${((bareDown / fundiDown) * 100).toFixed(1)}% of bare Koa GET`,
        fundiDown <= bareDown / 0.4 ? 'MET (>= 40%)' : 'MISSED (>= 40%)',
      ],
      ['archiver: 200 x 256 KB plaintext from disk into one ZIP', mbps(zipBytes, rawZipMs), '', ''],
      [
        'Fundi: bulk ZIP of the same 200 files (decrypting, over HTTP)',
        mbps(zipBytes, fundiZipMs),
        `${((rawZipMs / fundiZipMs) * 100).toFixed(1)}% of archiver`,
        fundiZipMs <= rawZipMs / 0.6 ? 'MET (>= 60%)' : 'MISSED (>= 60%)',
      ],
    ] as const;
    process.stdout.write(
      '\n## Evidence files: 10 MB, one at a time, local disk, SQLite\n| scenario | MB/s | ratio | target |\n|---|---|---|---|\n',
    );
    for (const [name, rate, ratio, met] of rows)
      process.stdout.write(`| ${name} | ${rate.toFixed(1)} | ${ratio} | ${met} |\n`);
    const growth = Math.max(0, after.hwm - before.rss) / 1024;
    process.stdout.write(
      `| Fundi: 100 MB video up and down, server peak RSS growth | ${growth.toFixed(1)} MB | (resident before ${(before.rss / 1024).toFixed(1)} MB) | ${growth < 32 ? 'MET' : 'MISSED'}: < 32 MB |\n`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
