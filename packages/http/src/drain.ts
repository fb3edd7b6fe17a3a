import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/** A request still in flight when a drain was cut short: what the log says of it (the path without its query). */
export interface CutRequest {
  method: string;
  path: string;
  /** How long it had run. */
  ms: number;
  /** Whether its body was still arriving or its answer was being sent. */
  stage: 'receiving' | 'answering';
}

/**
 * The graceful stop of an HTTP server (docs/architecture.md, "Shutdown"). From `start()` on the server accepts no
 * connection, its idle keep-alive connections are closed at once and every other one after its answer (which says
 * `Connection: close`: give `draining` to `createHttpApp`, which also makes `GET /ready` answer 503). `drained(ms)`
 * waits for the last connection to close; `cut()` ends those still open and names their requests.
 */
export class HttpDrain {
  private server: Server | null = null;
  private readonly inFlight = new Map<ServerResponse, number>();
  private closed: Promise<void> | null = null;

  /** True from `start()` on. */
  readonly draining = (): boolean => this.closed !== null;

  /** Follows the requests of `server`; call before it listens. */
  track(server: Server): void {
    this.server = server;
    server.on('request', (_req: IncomingMessage, res: ServerResponse) => {
      this.inFlight.set(res, performance.now());
      res.once('close', () => this.answered(res));
    });
  }

  private answered(res: ServerResponse): void {
    this.inFlight.delete(res);
    // An answer whose headers left before the drain began kept its connection alive: close it now it is idle.
    if (this.closed) setImmediate(() => this.server?.closeIdleConnections());
  }

  /** Stops accepting connections and closes the idle ones. */
  start(): void {
    const server = this.server;
    if (this.closed || !server) return;
    this.closed = new Promise((ok) => server.close(() => ok()));
    server.closeIdleConnections();
  }

  /** Starts the drain if need be; resolves true once every connection has closed, or false when `ms` passed first. */
  async drained(ms: number): Promise<boolean> {
    this.start();
    if (!this.closed) return true;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<boolean>((ok) => {
      timer = setTimeout(() => ok(false), Math.max(0, ms));
    });
    try {
      return await Promise.race([this.closed.then(() => true), late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Closes every connection now and names the requests that were still in flight. */
  cut(): CutRequest[] {
    const now = performance.now();
    const cut = [...this.inFlight].map(
      ([res, started]): CutRequest => ({
        method: res.req.method ?? '',
        path: (res.req.url ?? '').split('?')[0]!,
        ms: Math.round(now - started),
        stage: res.req.complete ? 'answering' : 'receiving',
      }),
    );
    this.server?.closeAllConnections();
    return cut;
  }
}
