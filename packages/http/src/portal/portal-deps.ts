import type { RateLimitStore } from '@fundi/application';
import type { LearnerUseCases } from '@fundi/application/learners';
import type { LogbookUseCases } from '@fundi/application/logbooks';
import type { PortalSessionContext, PortalUseCases, SendSignIn } from '@fundi/application/portal';
import type { StatementUseCases } from '@fundi/application/statements';
import type { TrainingUseCases } from '@fundi/application/training';
import type { EvidenceUseCases } from '@fundi/application/evidence';
import type { Readable } from 'node:stream';
import type { Context } from 'koa';
import type { Logger } from 'pino';
import type { Answer } from '../dashboard/dashboard-deps.js';

/**
 * The use cases the learner portal calls: its own sign-in, and the same ones the API calls for the rest; and what it
 * needs of others (`sendSignIn`), offered through their `pageDeps`.
 */
export interface PortalHttpDeps {
  portal: PortalUseCases;
  /** Sends a learner the sign-in link or code just issued (offered by the capability that sends messages). */
  sendSignIn: SendSignIn;
  training: Pick<TrainingUseCases, 'listEnrolments'>;
  learners: Pick<LearnerUseCases, 'updateLearner'>;
  logbooks: LogbookUseCases;
  evidence: EvidenceUseCases;
  statements: Pick<StatementUseCases, 'listStatements' | 'statementDownloadUrl'>;
  /** Counters for the sign-in limits (the API's store: shared across processes on Postgres). */
  rateLimits: RateLimitStore;
  logger: Logger;
  now(): Date;
  limits?: Partial<PortalLimits>;
  /** A form that sends nothing for this long is answered 408 (default 60 s). */
  bodyIdleTimeoutMs?: number;
}

/** Sign-in limits, each over a fixed 15-minute window (docs/dashboard.md, "Learner portal"). */
export interface PortalLimits {
  /** Sign-in requests and code attempts per client address, beyond which the answer is 429. */
  perClient: number;
  /** Messages sent per address typed, and per learner (further requests are answered alike and send nothing). */
  messages: number;
  /** Codes tried per address typed. */
  codeAttempts: number;
}

export const DEFAULT_PORTAL_LIMITS: PortalLimits = { perClient: 60, messages: 3, codeAttempts: 5 };

export type PortalPageHandler = (ctx: Context, s: PortalSessionContext) => Promise<Answer>;
export type PortalFormHandler = (ctx: Context, s: PortalSessionContext, form: URLSearchParams) => Promise<Answer>;

/** A form that carries one file (multipart): its text fields come before the file part, CSRF token first. */
export type PortalUploadHandler = (
  ctx: Context,
  s: PortalSessionContext,
  fields: Record<string, string>,
  file: { stream: Readable; filename: string | null },
) => Promise<Answer>;

/** How pages of a signed-in learner are added (the session and, for posts, the CSRF token are checked first). */
export interface PortalRoutes {
  get(path: string, h: PortalPageHandler): void;
  post(path: string, h: PortalFormHandler): void;
  upload(path: string, o: { field: string; maxBytes: number }, h: PortalUploadHandler): void;
}
