import type { Container } from 'inversify';
import {
  T,
  buildContainer,
  declaredBy,
  provideValue,
  resolve,
  token,
  useCasesOf,
  type StorageChoice,
  type createLogger,
} from '@fundi/adapters';
import { DescribeActors, systemActorsOf } from '@fundi/application';
import type { Clock } from '@fundi/domain';
import {
  buildOpenApi,
  cachingAuthenticator,
  createDashboard,
  createHttpApp,
  formA,
  formB,
  type RouteDef,
} from '@fundi/http';
import { createPortal, type PortalLimits } from '@fundi/http/portal';
import { verifyPage } from '@fundi/http/statements';
import type Koa from 'koa';
import type { Config } from './config.js';
import {
  capabilitiesFor,
  dashboardPartsOf,
  hooksOf,
  pageDepsOf,
  portalPartsOf,
  reposOf,
  routesOf,
  tenants,
  type AppRepositories,
  type Capabilities,
  type CapabilityConfig,
} from './capabilities/index.js';
import { openApiWebhooksOf } from './capabilities/declared.js';

type Logger = ReturnType<typeof createLogger>;

const CAPABILITIES = token<Capabilities>('Capabilities');

/** The capability list the container was built with. */
export function capabilitiesOf(c: Container): Capabilities {
  return resolve(c, CAPABILITIES);
}

/** Every route of the API, derived from the capabilities. */
export function apiRoutes(c: Container): RouteDef[] {
  return routesOf(c, capabilitiesOf(c));
}

export function containerFor(
  config: Pick<Config, 'database' | 'masterKey' | 'logLevel'> & CapabilityConfig,
  opts: { storage?: StorageChoice; clock?: Clock; logger?: Logger } = {},
): Container {
  const caps = capabilitiesFor(config);
  const c = buildContainer<AppRepositories>(
    {
      storage: opts.storage ?? config.database,
      masterKey: config.masterKey,
      previousMasterKeys: config.previousMasterKeys,
      logLevel: config.logLevel,
      clock: opts.clock,
      logger: opts.logger,
      webhooks: config.webhooks,
    },
    caps,
  );
  provideValue(c.bind.bind(c), CAPABILITIES, caps);
  return c;
}

/** Both API forms; Form A's cursors are signed with the service's signer. */
function formsOf(c: Container) {
  const signer = resolve(c, T.Signer);
  return {
    a: formA({ encode: (id) => signer.sign(id, 'cursor'), decode: (cur) => signer.verify(cur, 'cursor') }),
    b: formB(),
  };
}

/** The OpenAPI document the server serves at `/api/v1/openapi.json`. */
export function openApiDocument(c: Container): object {
  return buildOpenApi(apiRoutes(c), formsOf(c), openApiWebhooksOf(capabilitiesOf(c)));
}

export function httpApp(
  c: Container,
  config: Pick<Config, 'authCacheMs' | 'anonymousLimits' | 'trustProxy'> & {
    /** Per-address limits of the inbound routes (HR inbound); the anonymous limits when absent. */
    inboundLimits?: Config['inboundLimits'];
    /** Dashboard sign-in attempts per 15 minutes (docs/dashboard.md, "Sign-in and sessions"). */
    signInLimits?: { perAddress: number; perAccount: number };
    /** FUNDI_BODY_IDLE_TIMEOUT_MS (default 60 s). */
    bodyIdleTimeoutMs?: number;
    /** Learner portal sign-in limits (docs/dashboard.md, "Learner portal"). */
    portalLimits?: Partial<PortalLimits>;
    /** True once the process is shutting down (`HttpDrain.draining`). */
    draining?: () => boolean;
  },
): Koa {
  const repos = reposOf(c);
  const clock = resolve(c, T.Clock);
  return createHttpApp({
    routes: apiRoutes(c),
    forms: formsOf(c),
    authenticator: cachingAuthenticator(useCasesOf(c, tenants).authenticate, config.authCacheMs, () => clock.now()),
    rateLimits: resolve(c, T.RateLimits),
    meter: resolve(c, T.Meter),
    anonymousLimits: config.anonymousLimits,
    inboundLimits: config.inboundLimits,
    logger: resolve(c, T.Logger),
    accessLog: resolve(c, T.AccessLogger),
    ready: async () => {
      await repos.tenants.findBySlug('__ready_check__');
    },
    trustProxy: config.trustProxy,
    bodyIdleTimeoutMs: config.bodyIdleTimeoutMs,
    draining: config.draining,
    openApiExtend: openApiWebhooksOf(capabilitiesOf(c)),
    // The service's own actors are named as declared: the kernel's and those capabilities act as.
    actors: new DescribeActors({ repos, system: systemActorsOf(declaredBy(capabilitiesOf(c)).hooks.systemActor) }),
    pages: [pagesOf(c, config), portalOf(c, config)],
    onRefusedKeys: hooksOf(c, capabilitiesOf(c)).refusedKeys,
  });
}

/** The pages served beside the API: the public verification page of statements, then the dashboard. */
function pagesOf(
  c: Container,
  config: Pick<Config, 'anonymousLimits'> & {
    signInLimits?: { perAddress: number; perAccount: number };
    bodyIdleTimeoutMs?: number;
  },
): Koa.Middleware {
  const clock = resolve(c, T.Clock);
  const verify = verifyPage({
    bodyIdleTimeoutMs: config.bodyIdleTimeoutMs,
    verification: pageDepsOf(c, capabilitiesOf(c)).verification,
    rateLimits: resolve(c, T.RateLimits),
    perMinute: config.anonymousLimits.perMinute,
    now: () => clock.now().getTime(),
  });
  const dashboard = dashboardOf(c, config.signInLimits, config.bodyIdleTimeoutMs);
  return (ctx, next) => verify(ctx, () => dashboard(ctx, next));
}

/** The web dashboard over the same use cases as the API (docs/dashboard.md). */
export function dashboardOf(
  c: Container,
  signInLimits?: { perAddress: number; perAccount: number },
  bodyIdleTimeoutMs?: number,
) {
  const clock = resolve(c, T.Clock);
  return createDashboard(
    {
      ...pageDepsOf(c, capabilitiesOf(c)),
      rateLimits: resolve(c, T.RateLimits),
      logger: resolve(c, T.Logger),
      now: () => clock.now(),
      signInLimits,
      bodyIdleTimeoutMs,
    },
    dashboardPartsOf(capabilitiesOf(c)),
  );
}

/** The learner portal over the same use cases as the API (docs/dashboard.md, "Learner portal"). */
export function portalOf(c: Container, config: { portalLimits?: Partial<PortalLimits>; bodyIdleTimeoutMs?: number }) {
  const clock = resolve(c, T.Clock);
  return createPortal(
    {
      ...pageDepsOf(c, capabilitiesOf(c)),
      rateLimits: resolve(c, T.RateLimits),
      logger: resolve(c, T.Logger),
      now: () => clock.now(),
      limits: config.portalLimits,
      bodyIdleTimeoutMs: config.bodyIdleTimeoutMs,
    },
    portalPartsOf(capabilitiesOf(c)),
  );
}
