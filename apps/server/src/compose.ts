import type { Container } from 'inversify';
import { T, W, buildContainer, resolve, type StorageChoice, type WebhookSettings } from '@fundi/adapters';
import type { Clock } from '@fundi/domain';
import { cachingAuthenticator, createHttpApp, formA, formB, learnerRoutes, type RouteDef } from '@fundi/http';
import { registerWebhookEvents, webhookRoutes } from '@fundi/http';
import type Koa from 'koa';
import type { Config } from './config.js';

/** Every route of the API, built from the container's use cases. Later capabilities add theirs here. */
export function apiRoutes(c: Container): RouteDef[] {
  return [
    ...learnerRoutes({
      registerLearner: resolve(c, T.RegisterLearner),
      getLearner: resolve(c, T.GetLearner),
      listLearners: resolve(c, T.ListLearners),
      updateLearner: resolve(c, T.UpdateLearner),
      eraseLearner: resolve(c, T.EraseLearner),
    }),
    ...webhookRoutes(resolve(c, W.UseCases)),
  ];
}

export function containerFor(
  config: Pick<Config, 'database' | 'masterKey' | 'logLevel'> & { webhooks?: WebhookSettings },
  opts: { storage?: StorageChoice; clock?: Clock } = {},
): Container {
  return buildContainer({ storage: opts.storage ?? config.database, masterKey: config.masterKey, logLevel: config.logLevel, clock: opts.clock, webhooks: config.webhooks });
}

export function httpApp(c: Container, config: Pick<Config, 'authCacheMs' | 'anonymousLimits' | 'trustProxy'>): Koa {
  const signer = resolve(c, T.Signer);
  const repos = resolve(c, T.Repositories);
  return createHttpApp({
    routes: apiRoutes(c),
    forms: {
      a: formA({ encode: (id) => signer.sign(id, 'cursor'), decode: (cur) => signer.verify(cur, 'cursor') }),
      b: formB(),
    },
    authenticator: cachingAuthenticator(resolve(c, T.Authenticate), config.authCacheMs),
    rateLimits: resolve(c, T.RateLimits),
    anonymousLimits: config.anonymousLimits,
    logger: resolve(c, T.Logger),
    ready: async () => {
      await repos.tenants.findBySlug('__ready_check__');
    },
    trustProxy: config.trustProxy,
    openApiExtend: registerWebhookEvents,
  });
}
