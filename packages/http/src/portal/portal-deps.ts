import type { RateLimitStore } from '@fundi/application';
import type { LearnerUseCases } from '@fundi/application/learners';
import type { LogbookUseCases } from '@fundi/application/logbooks';
import type { PortalSessionContext, PortalUseCases, SendSignIn } from '@fundi/application/portal';
import type { StatementUseCases } from '@fundi/application/statements';
import type { TrainingUseCases } from '@fundi/application/training';
import type { Readable } from 'node:stream';
import type { Context } from 'koa';
import type { Logger } from 'pino';
import type { Answer } from '../dashboard/dashboard-deps.js';

/**
 * The use cases the learner portal calls: its own sign-in, and the same ones the API calls for the rest; and what it
 * needs of others (`sendSignIn`), offered through their `pageDeps`. A capability whose sections or pages the portal
 * shows adds the use cases they call from its own folder (`declare module` of this file, as the evidence's
 * `portal-deps.ts`).
 */
export interface PortalHttpDeps {
  portal: PortalUseCases;
  /** Sends a learner the sign-in link or code just issued (offered by the capability that sends messages). */
  sendSignIn: SendSignIn;
  training: Pick<TrainingUseCases, 'listEnrolments'>;
  learners: Pick<LearnerUseCases, 'updateLearner'>;
  logbooks: LogbookUseCases;
  statements: Pick<StatementUseCases, 'listStatements' | 'statementDownloadUrl'>;
  /** Counters for the sign-in limits (the API's store: shared across processes on Postgres). */
  rateLimits: RateLimitStore;
  logger: Logger;
  now(): Date;
  limits?: Partial<PortalLimits>;
  /** A form that sends nothing for this long is answered 408 (default 60 s). */
  bodyIdleTimeoutMs?: number;
  /** Every capability's sections of the portal's pages, by slot, in order (composed by `createPortal`). */
  sections: ComposedPortalSections;
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

/** Registers a capability's pages of the portal (their routes are the session's learner's). */
export type PortalPageRegistrar = (routes: PortalRoutes, d: PortalHttpDeps) => void;

/**
 * The slots of the portal's pages that show capabilities' records (docs/dashboard.md, "Learner portal"), by name:
 * what the page hands each section (`at`) and what a section gives back (`shows`). The page that has a slot adds it
 * from its own file (`declare module` of this file, as `pages/home-slots.ts`), so this file names none.
 */
// biome-ignore lint/suspicious/noEmptyInterface: each page adds its slots by declaration merging.
export interface PortalSlots {}

/** What a portal slot hands its sections and takes from them. */
export interface PortalSlot {
  at: unknown;
  shows: unknown;
}

/**
 * A section a capability adds to a portal page (docs/architecture.md, "A capability's anatomy"): it loads what it
 * shows for the session's learner and renders it. The page loads its sections in parallel and places them by
 * `order`, smallest first (equal ones in the capability list's order).
 */
export interface PortalSection<S extends PortalSlot> {
  order: number;
  /** Loads and renders the section; null shows nothing. */
  render(d: PortalHttpDeps, s: PortalSessionContext, at: S['at']): Promise<S['shows'] | null>;
}

/** The portal slot named `K`. */
export type PortalSlotOf<K extends keyof PortalSlots> = PortalSlots[K] extends PortalSlot ? PortalSlots[K] : never;
type PortalSectionsBySlot = { readonly [K in keyof PortalSlots]: readonly PortalSection<PortalSlotOf<K>>[] };
/** A capability's sections of the portal's pages, by slot. */
export type PortalSections = Partial<PortalSectionsBySlot>;
/** Every capability's sections of the portal's pages, by slot, each slot's in order. */
export type ComposedPortalSections = Partial<PortalSectionsBySlot>;

/** What a capability adds to the learner portal: its pages (routes), and its sections of the portal's pages. */
export interface PortalPages {
  pages?: readonly PortalPageRegistrar[];
  sections?: PortalSections;
}
