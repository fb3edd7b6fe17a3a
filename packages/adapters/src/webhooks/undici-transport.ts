import { isIP } from 'node:net';
import type { OutgoingWebhook, WebhookTransport } from '@fundi/application';
import type { AttemptResult } from '@fundi/domain';
import { Agent, buildConnector, request } from 'undici';
import { AddressGuard, BlockedAddressError, systemResolver, type Resolver } from './address-guard.js';
import { webhookHeaders } from './signature.js';

export interface TransportSettings {
  /** Whole-attempt limit: success is a 2xx within it (D6: 10 s). */
  timeoutMs: number;
  allowHosts: readonly string[];
  allowHttp: boolean;
  /** Connections kept per receiver origin. */
  connectionsPerOrigin?: number;
  resolver?: Resolver;
  /** The socket-opening step after the address check; tests inject a spy to prove nothing was opened. */
  baseConnect?: buildConnector.connector;
}

const EXCERPT = 1024;
/** Bodies up to this size are read to the end so the keep-alive connection can be reused; longer ones are cut. */
const DRAIN_LIMIT = 64 * 1024;

/**
 * Delivers webhooks with undici over keep-alive connections. Every new connection passes the AddressGuard first
 * and then connects to the address it approved (TLS still verifies the original host name). Redirects are never
 * followed; a 3xx is a failed attempt.
 */
export class UndiciWebhookTransport implements WebhookTransport {
  private readonly agent: Agent;

  constructor(private readonly s: TransportSettings) {
    const guard = new AddressGuard(s.allowHosts, s.resolver ?? systemResolver);
    const base = s.baseConnect ?? buildConnector({ timeout: Math.min(s.timeoutMs, 10_000) });
    const connect: buildConnector.connector = (opts, callback) => {
      guard.check(opts.hostname).then(
        ({ address }) => base({ ...opts, hostname: address, servername: opts.servername ?? (isIP(opts.hostname) ? undefined : opts.hostname) }, callback),
        (err: Error) => callback(err, null),
      );
    };
    this.agent = new Agent({ connect, connections: s.connectionsPerOrigin ?? 64, keepAliveTimeout: 30_000, headersTimeout: s.timeoutMs, bodyTimeout: s.timeoutMs });
  }

  async send(w: OutgoingWebhook): Promise<AttemptResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    if (!w.url.startsWith('https:') && !this.s.allowHttp) return { statusCode: null, latencyMs: 0, error: 'https is required', responseExcerpt: null };
    try {
      // Connect, headers and body each have the limit (undici's own timers, cheaper than a signal per request);
      // the status that decides success arrives with the headers, so a 2xx counts only within the limit.
      const res = await request(w.url, {
        method: 'POST', dispatcher: this.agent, headers: webhookHeaders(w), body: w.body, headersTimeout: this.s.timeoutMs, bodyTimeout: this.s.timeoutMs,
      });
      const excerpt = await readExcerpt(res.body, Number(res.headers['content-length'] ?? NaN));
      const latencyMs = elapsed();
      // undici's timers are coarse (they may fire late); the verdict uses the measured time, so it is exact.
      const late = latencyMs > this.s.timeoutMs ? `timeout after ${this.s.timeoutMs} ms` : null;
      const redirect = res.statusCode >= 300 && res.statusCode < 400 ? 'redirect not followed' : null;
      return { statusCode: res.statusCode, latencyMs, error: late ?? redirect, responseExcerpt: excerpt };
    } catch (e) {
      return { statusCode: null, latencyMs: elapsed(), error: describe(e, this.s.timeoutMs), responseExcerpt: null };
    }
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

async function readExcerpt(body: AsyncIterable<Buffer> & { destroy(): void; text(): Promise<string> }, length: number): Promise<string | null> {
  if (length === 0) {
    await body.text();
    return null;
  }
  if (length > 0 && length <= DRAIN_LIMIT) {
    const text = await body.text();
    return Buffer.byteLength(text) <= EXCERPT ? text : Buffer.from(text).subarray(0, EXCERPT).toString('utf8');
  }
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    if (size < EXCERPT) parts.push(chunk);
    size += chunk.length;
    if (size > DRAIN_LIMIT) {
      body.destroy();
      break;
    }
  }
  return size === 0 ? null : Buffer.concat(parts).subarray(0, EXCERPT).toString('utf8');
}

function describe(e: unknown, timeoutMs: number): string {
  const err = e as { name?: string; code?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e instanceof BlockedAddressError) return e.message;
  if (err.name === 'TimeoutError' || err.name === 'AbortError' || err.code?.includes('TIMEOUT')) return `timeout after ${timeoutMs} ms`;
  const code = err.code ?? err.cause?.code;
  if (code === 'ECONNREFUSED') return 'connection refused';
  return `${code ? `${code}: ` : ''}${err.message ?? String(e)}`.slice(0, 500);
}
