import type { AccessLog, RateLimitStore } from '@fundi/application';
import type { TenantLimits } from '@fundi/domain';
import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import type { ApiForm } from './forms/form.js';
import type { Authenticator } from './middleware/auth.js';
import type { ActorExpander } from './mount.js';
import type { buildOpenApi } from './openapi/generate.js';
import type { RouteDef } from './routes/route.js';

/** Many refused API keys presented from one client address (`onRefusedKeys`). */
export interface RefusedKeys {
  ip: string;
  presented: string;
  path: string;
  count: number;
}

export interface HttpDeps {
  routes: readonly RouteDef[];
  forms: { a: ApiForm; b: ApiForm };
  authenticator: Authenticator;
  rateLimits: RateLimitStore;
  /** Counts each authenticated request for its key's usage (docs/api.md, "Usage"). */
  meter?: { count(tenantId: string, keyId: string, nowMs: number): void };
  /** Limits for requests without a valid key, counted per client address. */
  anonymousLimits: Pick<TenantLimits, 'perMinute' | 'perDay'>;
  /** Limits for the `inbound` routes' calls (other systems with their own secret), per client address. */
  inboundLimits?: Pick<TenantLimits, 'perMinute' | 'perDay'>;
  logger: Logger;
  /** One line per request; fields are fixed and free of personal data. */
  accessLog: AccessLog;
  /** Resolves when the database answers; used by `GET /ready`. */
  ready(): Promise<void>;
  /**
   * True once the process is shutting down (`HttpDrain`): `GET /ready` answers 503 and every answer closes its
   * connection (docs/architecture.md, "Shutdown").
   */
  draining?(): boolean;
  /** A request body that sends nothing for this long is answered 408 (default `DEFAULT_BODY_IDLE_TIMEOUT_MS`). */
  bodyIdleTimeoutMs?: number;
  /** Trust `X-Forwarded-For` (behind a proxy). */
  trustProxy?: boolean;
  now?: () => number;
  /** Shows actor ids as `{type, id, name}` on `actors: true` routes (docs/api.md, "Who did it"). */
  actors?: ActorExpander;
  /** Adds to the OpenAPI document (for example its `webhooks` section). */
  openApiExtend?: Parameters<typeof buildOpenApi>[2];
  /**
   * Served before the API, in order (the web dashboard at `/dashboard`, the learner portal at `/learn`); each
   * answers its own paths and errors.
   */
  pages?: Middleware | readonly Middleware[];
  /**
   * Called once when one client address has presented `REFUSED_KEY_ALERT` refused API keys within 10 minutes
   * (the security alert of docs/api.md, "Notifications"). Never delays or changes the answer.
   */
  onRefusedKeys?(r: RefusedKeys): Promise<void>;
}
