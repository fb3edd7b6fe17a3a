import type {
  EvidenceService,
  ExportService,
  LearnerUseCases,
  RateLimitStore,
  SessionContext,
  StaffUseCases,
  TenantUseCases,
  TrainingUseCases,
  WebhookSubscriptionUseCases,
} from '@fundi/application';
import type { Context } from 'koa';
import type { Logger } from 'pino';
import type { Html } from './html.js';

/** The use cases the dashboard calls: the same ones the API routes call. */
export interface DashboardDeps {
  staff: StaffUseCases;
  tenants: Pick<TenantUseCases, 'createApiKey' | 'listApiKeys' | 'revokeApiKey'>;
  learners: Pick<LearnerUseCases, 'listLearners' | 'getLearner'>;
  training: Pick<TrainingUseCases, 'listEnrolments' | 'listAssessments'>;
  webhooks: WebhookSubscriptionUseCases;
  evidence: EvidenceService;
  exports: ExportService;
  /** Counters for the sign-in limits (the API's store: shared across processes on Postgres). */
  rateLimits: RateLimitStore;
  logger: Logger;
  now(): Date;
  /** Sign-in attempts allowed per client address and per account in 15 minutes. */
  signInLimits?: { perAddress: number; perAccount: number };
}

/** What a page handler answers: a page, or a redirect after a successful post. */
export type Answer = Html | { redirect: string };

export type PageHandler = (ctx: Context, s: SessionContext) => Promise<Answer>;
export type FormHandler = (ctx: Context, s: SessionContext, form: URLSearchParams) => Promise<Answer>;

export interface PageRoutes {
  get(path: string, h: PageHandler): void;
  post(path: string, h: FormHandler): void;
}
