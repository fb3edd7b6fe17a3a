import { Worker, type WorkerOptions } from 'node:worker_threads';
import nodemailer, { type SendMailOptions, type Transporter } from 'nodemailer';
import { THREAD, TRANSPORT, nodemailerEntry, plainData, type ThreadAnswer } from './mail-thread.js';

/**
 * At most this many messages are on the thread at once; the others wait on the main thread as their options. The
 * thread composes one at a time anyway, and what it holds outlives its young generation's collections: with 32 on it
 * and a young generation of 8 MB, it spent twice the CPU (measured 2026-11-25).
 */
const ON_THREAD = 8;
/** The thread's young generation: V8's default (48 MB on 64-bit) took the import's peak RSS past 250 MB. */
const YOUNG_MB = 8;

/** A composed message: its bytes and its Message-ID (angle brackets included). */
export interface ComposedMail {
  message: Buffer;
  messageId: string;
}

/** Starts the thread: `new Worker(code, options)` by default; tests pass one that fails or keeps the Worker. */
export type StartThread = (code: string, options: WorkerOptions) => Worker;

interface Waiting {
  options: SendMailOptions;
  ok: (c: ComposedMail) => void;
  fail: (e: unknown) => void;
}

/**
 * Composes messages with nodemailer on a worker thread of its own (docs/architecture.md, "Mail composition"), so
 * the MIME streams, random boundaries and Message-IDs, and their garbage, cost the main thread (HTTP API, imports,
 * the outbox dispatcher) nothing but a structured clone of the options and the handing over of the bytes.
 *
 * The thread starts on the first message, is unref()ed while idle so it never keeps the process alive (ref()ed
 * while a message waits for it, so a send being awaited finishes), and stops with `close()`. Any number of messages
 * may be handed over at once, each with an id; at most 8 are on the thread, the others wait as their options. Nothing is ever lost: when the thread cannot start or dies, composition goes back to the
 * main thread for good, the messages it held included; so do options that are not plain data (a Buffer or stream
 * attachment would not cross a thread as itself).
 */
export class MailComposer {
  private thread: Worker | null = null;
  /** The thread could not start or died: everything is composed in-process from then on. */
  private broken = false;
  private closed = false;
  private lastId = 0;
  /** Every message handed to the composer and not answered yet: on the thread, or queued for it. */
  private readonly waiting = new Map<number, Waiting>();
  /** Ids of waiting messages not posted to the thread yet, oldest first. */
  private queued: number[] = [];
  private posted = 0;
  private local: Transporter | null = null;
  private onThread = 0;
  private inProcess = 0;

  constructor(private readonly startThread: StartThread = (code, options) => new Worker(code, options)) {}

  /** Messages composed on the thread, and in-process (tests, diagnostics). */
  get composed(): { onThread: number; inProcess: number } {
    return { onThread: this.onThread, inProcess: this.inProcess };
  }

  /** Messages for the thread not answered yet (on it, or queued for it). */
  get inFlight(): number {
    return this.waiting.size;
  }

  /** `thread`: the thread runs or will start on the next message; `in-process`: it failed; `closed`. */
  get mode(): 'thread' | 'in-process' | 'closed' {
    return this.closed ? 'closed' : this.broken ? 'in-process' : 'thread';
  }

  compose(options: SendMailOptions): Promise<ComposedMail> {
    if (this.closed || this.broken || !plainData(options)) return this.composeHere(options);
    const t = this.thread ?? this.start();
    if (!t) return this.composeHere(options);
    const id = ++this.lastId;
    return new Promise<ComposedMail>((ok, fail) => {
      this.waiting.set(id, { options, ok, fail });
      if (this.waiting.size === 1) t.ref();
      this.queued.push(id);
      this.post(t);
    });
  }

  /** Posts queued messages while the thread holds fewer than ON_THREAD. */
  private post(t: Worker): void {
    while (this.posted < ON_THREAD && this.queued.length) {
      const id = this.queued.shift()!;
      const w = this.waiting.get(id)!;
      try {
        t.postMessage({ id, options: w.options });
        this.posted++;
      } catch {
        // Not clonable after all: composed here.
        this.settle(t, id);
        this.composeHere(w.options).then(w.ok, w.fail);
      }
    }
  }

  /** A message leaves the composer's care. */
  private settle(t: Worker, id: number): void {
    this.waiting.delete(id);
    if (this.waiting.size === 0) t.unref();
  }

  /** Stops the thread. Messages still on it are composed in-process; later ones too. */
  async close(): Promise<void> {
    this.closed = true;
    await this.letGo();
  }

  private start(): Worker | null {
    let t: Worker;
    try {
      t = this.startThread(THREAD, {
        eval: true,
        workerData: { nodemailer: nodemailerEntry(), transport: TRANSPORT },
        resourceLimits: { maxYoungGenerationSizeMb: YOUNG_MB },
      });
    } catch {
      this.broken = true;
      return null;
    }
    t.on('message', (a: ThreadAnswer) => this.answer(t, a));
    const died = () => {
      if (this.thread !== t) return;
      this.broken = true;
      void this.letGo();
    };
    t.on('error', died);
    t.on('messageerror', died);
    t.on('exit', died);
    // After the listeners: a 'message' listener added later would ref the thread again.
    t.unref();
    this.thread = t;
    return t;
  }

  private answer(t: Worker, a: ThreadAnswer): void {
    const w = this.waiting.get(a.id);
    // Already handed to the main thread (the thread was let go meanwhile).
    if (!w || this.thread !== t) return;
    this.posted--;
    this.settle(t, a.id);
    this.post(t);
    if (a.message && a.messageId) {
      this.onThread++;
      w.ok({ message: Buffer.from(a.message), messageId: a.messageId });
    } else this.composeHere(w.options).then(w.ok, w.fail);
  }

  /** Ends the thread; whatever it still held is composed here. */
  private async letGo(): Promise<void> {
    const t = this.thread;
    this.thread = null;
    const held = [...this.waiting.values()];
    this.waiting.clear();
    this.queued = [];
    this.posted = 0;
    for (const w of held) this.composeHere(w.options).then(w.ok, w.fail);
    if (t) await t.terminate();
  }

  private async composeHere(options: SendMailOptions): Promise<ComposedMail> {
    this.local ??= nodemailer.createTransport(TRANSPORT);
    const info = await this.local.sendMail(options);
    this.inProcess++;
    return { message: info.message as Buffer, messageId: info.messageId };
  }
}
