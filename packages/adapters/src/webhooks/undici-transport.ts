import { isIP } from 'node:net';
import type { OutgoingWebhook, WebhookTransport } from '@fundi/application/webhooks';
import type { AttemptResult } from '@fundi/domain/webhooks';
import { Agent, buildConnector } from 'undici';
import { AddressGuard, systemResolver, type Resolver } from './address-guard.js';
import { AttemptHandler } from './attempt-handler.js';
import { webhookHeaders } from './signature.js';

export interface TransportSettings {
  /** Whole-attempt limit: success is a 2xx within it (10 s by default). */
  timeoutMs: number;
  allowHosts: readonly string[];
  allowHttp: boolean;
  /** Connections kept per receiver origin. */
  connectionsPerOrigin?: number;
  resolver?: Resolver;
  /** The socket-opening step after the address check; tests inject a spy to prove nothing was opened. */
  baseConnect?: buildConnector.connector;
}

/**
 * Delivers webhooks with undici over keep-alive connections. Every new connection passes the AddressGuard first
 * and then connects to the address it approved (TLS still verifies the original host name). Redirects are never
 * followed; a 3xx is a failed attempt.
 */
export class UndiciWebhookTransport implements WebhookTransport {
  private readonly agent: Agent;
  private readonly targets = new Map<string, { origin: string; path: string }>();

  get timeoutMs(): number {
    return this.s.timeoutMs;
  }

  constructor(private readonly s: TransportSettings) {
    const guard = new AddressGuard(s.allowHosts, s.resolver ?? systemResolver);
    const base = s.baseConnect ?? buildConnector({ timeout: Math.min(s.timeoutMs, 10_000) });
    const connect: buildConnector.connector = (opts, callback) => {
      guard.check(opts.hostname).then(
        ({ address }) =>
          base(
            {
              ...opts,
              hostname: address,
              servername: opts.servername ?? (isIP(opts.hostname) ? undefined : opts.hostname),
            },
            callback,
          ),
        (err: Error) => callback(err, null),
      );
    };
    this.agent = new Agent({
      connect,
      connections: s.connectionsPerOrigin ?? 64,
      keepAliveTimeout: 30_000,
      headersTimeout: s.timeoutMs,
      bodyTimeout: s.timeoutMs,
    });
  }

  send(w: OutgoingWebhook): Promise<AttemptResult> {
    if (!w.url.startsWith('https:') && !this.s.allowHttp)
      return Promise.resolve({ statusCode: null, latencyMs: 0, error: 'https is required', responseExcerpt: null });
    const started = performance.now();
    const target = this.target(w.url);
    if (!target)
      return Promise.resolve({ statusCode: null, latencyMs: 0, error: 'invalid url', responseExcerpt: null });
    const { origin, path } = target;
    return new Promise((settle) => {
      // Connect, headers and body each have the limit (undici's own timers, cheaper than a signal per request);
      // the status that decides success arrives with the headers, so a 2xx counts only within the limit.
      this.agent.dispatch(
        {
          origin,
          path,
          method: 'POST',
          headers: webhookHeaders(w),
          body: w.body,
          headersTimeout: this.s.timeoutMs,
          bodyTimeout: this.s.timeoutMs,
        },
        new AttemptHandler(started, this.s.timeoutMs, settle),
      );
    });
  }

  /** Origin and path of a subscription URL, parsed once: every delivery to it reuses them. */
  private target(url: string): { origin: string; path: string } | null {
    let t = this.targets.get(url);
    if (!t) {
      if (!URL.canParse(url)) return null;
      const u = new URL(url);
      if (this.targets.size > 10_000) this.targets.clear();
      t = { origin: u.origin, path: `${u.pathname}${u.search}` };
      this.targets.set(url, t);
    }
    return t;
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}
