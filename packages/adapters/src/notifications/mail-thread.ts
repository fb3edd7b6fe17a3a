import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** How every message is composed, on the thread and in-process alike: RFC 5322 with CRLF line ends, as one Buffer. */
export const TRANSPORT = { streamTransport: true, buffer: true, newline: 'windows' } as const;

// The thread's code. It imports the very nodemailer module the main thread imports (`workerData.nodemailer`, its ESM
// entry), and only with import(), which works whether the code runs as CommonJS (the default) or as a module (a
// process started with --input-type=module passes that on to its threads). A message it could not compose is
// answered with the error, and the main thread composes it again in-process, so the caller gets nodemailer's own
// error. A failure to load nodemailer is left unhandled: the thread dies and the main thread takes over.
export const THREAD = `
import('node:worker_threads').then(({ parentPort, workerData }) => {
  const transport = import(workerData.nodemailer).then((m) => m.default.createTransport(workerData.transport));
  parentPort.on('message', async ({ id, options }) => {
    const t = await transport;
    let info;
    try {
      info = await t.sendMail(options);
    } catch (e) {
      parentPort.postMessage({ id, error: String((e && e.message) || e) });
      return;
    }
    // A small Buffer is a slice of Node's shared pool, which must not be handed over: such bytes are copied once
    // into an ArrayBuffer of their own (a few KB); a larger one is handed over as it is.
    const b = info.message;
    const own = b.byteLength === b.buffer.byteLength ? b : new Uint8Array(b);
    parentPort.postMessage({ id, message: own.buffer, messageId: info.messageId }, [own.buffer]);
  });
});
`;

/** What the thread posts back for a message: its bytes and Message-ID, or the error it could not compose it with. */
export interface ThreadAnswer {
  id: number;
  message?: ArrayBuffer;
  messageId?: string;
  error?: string;
}

/**
 * The file `import 'nodemailer'` loads from this module: the package's ESM entry (nodemailer ships a CommonJS build
 * too, which `require.resolve` would name). Resolved from this file, so it holds under vitest (sources) and in dist.
 */
export function nodemailerEntry(): string {
  const manifest = createRequire(import.meta.url).resolve('nodemailer/package.json');
  const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { exports?: { '.'?: { import?: unknown } } };
  const entry = pkg.exports?.['.']?.import;
  if (typeof entry !== 'string') throw new Error('nodemailer: no ESM entry in its package.json');
  return pathToFileURL(join(dirname(manifest), entry)).href;
}

/** Strings, numbers, booleans, null and undefined, in arrays and plain objects: what crosses a thread unchanged. */
export function plainData(v: unknown): boolean {
  if (v === null || v === undefined) return true;
  const kind = typeof v;
  if (kind === 'string' || kind === 'number' || kind === 'boolean') return true;
  if (kind !== 'object') return false;
  if (Array.isArray(v)) return v.every(plainData);
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) return false;
  return Object.values(v as object).every(plainData);
}
