import type { Container } from 'inversify';
import { T, W, buildContainer, resolve, type StorageChoice, type WebhookSettings, type createLogger } from '@fundi/adapters';
import type { Clock } from '@fundi/domain';
import { cachingAuthenticator, createHttpApp, formA, formB, learnerRoutes, type RouteDef } from '@fundi/http';
import { assessmentRoutes, enrolmentRoutes, programmeRoutes, registerWebhookEvents, webhookRoutes } from '@fundi/http';
import type Koa from 'koa';
import type { Config } from './config.js';

type Logger = ReturnType<typeof createLogger>;

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
    ...programmeRoutes({
      createProgramme: resolve(c, T.CreateProgramme), getProgramme: resolve(c, T.GetProgramme), listProgrammes: resolve(c, T.ListProgrammes),
      updateProgramme: resolve(c, T.UpdateProgramme), retireProgramme: resolve(c, T.RetireProgramme), deleteProgramme: resolve(c, T.DeleteProgramme),
    }),
    ...enrolmentRoutes({
      enrolLearner: resolve(c, T.EnrolLearner), getEnrolment: resolve(c, T.GetEnrolment), listEnrolments: resolve(c, T.ListEnrolments),
      changeEnrolmentStatus: resolve(c, T.ChangeEnrolmentStatus), getEnrolmentHistory: resolve(c, T.GetEnrolmentHistory),
    }),
    ...assessmentRoutes({
      recordAssessment: resolve(c, T.RecordAssessment), getAssessment: resolve(c, T.GetAssessment), listAssessments: resolve(c, T.ListAssessments),
      moderateAssessment: resolve(c, T.ModerateAssessment), getModeration: resolve(c, T.GetModeration), sampleForModeration: resolve(c, T.SampleForModeration),
    }),
    ...webhookRoutes(resolve(c, W.UseCases)),
  ];
}

export function containerFor(
  config: Pick<Config, 'database' | 'masterKey' | 'logLevel'> & { webhooks?: WebhookSettings },
  opts: { storage?: StorageChoice; clock?: Clock; logger?: Logger } = {},
): Container {
  return buildContainer({
    storage: opts.storage ?? config.database, masterKey: config.masterKey, logLevel: config.logLevel,
    clock: opts.clock, logger: opts.logger, webhooks: config.webhooks,
  });
}

export function httpApp(c: Container, config: Pick<Config, 'authCacheMs' | 'anonymousLimits' | 'trustProxy'>): Koa {
  const signer = resolve(c, T.Signer);
  const repos = resolve(c, T.Repositories);
  const clock = resolve(c, T.Clock);
  return createHttpApp({
    routes: apiRoutes(c),
    forms: {
      a: formA({ encode: (id) => signer.sign(id, 'cursor'), decode: (cur) => signer.verify(cur, 'cursor') }),
      b: formB(),
    },
    authenticator: cachingAuthenticator(resolve(c, T.Authenticate), config.authCacheMs, () => clock.now()),
    rateLimits: resolve(c, T.RateLimits),
    anonymousLimits: config.anonymousLimits,
    logger: resolve(c, T.Logger),
    accessLog: resolve(c, T.AccessLogger),
    ready: async () => {
      await repos.tenants.findBySlug('__ready_check__');
    },
    trustProxy: config.trustProxy,
    openApiExtend: registerWebhookEvents,
  });
}
