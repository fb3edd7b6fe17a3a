import type { RateLimitStore, TenantUseCases } from '@fundi/application';
import type { SessionContext, StaffUseCases } from '@fundi/application/staff';
import type { Role, Scope } from '@fundi/domain';
import type { Readable } from 'node:stream';
import type { Context } from 'koa';
import type { Logger } from 'pino';
import type { Html } from './html.js';

/**
 * The use cases the dashboard calls: the same ones the API routes call. Each capability adds the use cases its pages
 * are handed from its own folder (`declare module` of this file in its `dashboard-deps.ts`), so the ones here are the
 * kernel's: staff sign-in, the tenant's keys and settings, and the limits (docs/architecture.md, "A capability's
 * anatomy").
 */
export interface DashboardDeps {
  staff: StaffUseCases;
  tenants: Pick<TenantUseCases, 'createApiKey' | 'listApiKeys' | 'revokeApiKey' | 'setTimeZone'>;
  /** Mails a staff user a link to choose a new password, when the account exists (the forgotten-password form). */
  requestPasswordReset(tenant: string, email: string): Promise<void>;
  /** Counters for the sign-in limits (the API's store: shared across processes on Postgres). */
  rateLimits: RateLimitStore;
  logger: Logger;
  now(): Date;
  /** Sign-in attempts allowed per client address and per account in 15 minutes. */
  signInLimits?: { perAddress: number; perAccount: number };
  /** A form or upload body that sends nothing for this long is answered 408 (default 60 s). */
  bodyIdleTimeoutMs?: number;
  /** Every capability's sections of the shared pages, by slot, in order (composed by `createDashboard`). */
  sections: ComposedSections;
}

/** A file the dashboard sends (errors of an import as CSV). */
export interface FileOut {
  file: { contentType: string; filename: string; open(): Readable };
}

/** What a page handler answers: a page, a redirect after a successful post, or a file. */
export type Answer = Html | { redirect: string } | FileOut;

export type PageHandler = (ctx: Context, s: SessionContext) => Promise<Answer>;
export type FormHandler = (ctx: Context, s: SessionContext, form: URLSearchParams) => Promise<Answer>;

/** A form that carries one file (multipart): its text fields come before the file part, CSRF token first. */
export type UploadHandler = (
  ctx: Context,
  s: SessionContext,
  fields: Record<string, string>,
  file: { stream: Readable; filename: string | null },
) => Promise<Answer>;

export interface PageRoutes {
  get(path: string, h: PageHandler): void;
  post(path: string, h: FormHandler): void;
  upload(path: string, o: { field: string; maxBytes: number }, h: UploadHandler): void;
}

/**
 * An entry of the dashboard's navigation (docs/architecture.md, "A capability's anatomy"): shown to a user whose
 * role grants `scope` (and is `role`, where given), sorted by `order`.
 */
export interface NavEntry {
  href: string;
  label: string;
  order: number;
  scope?: Scope;
  role?: Role;
}

/** Registers a group of pages' routes on the dashboard. */
export type PageRegistrar = (routes: PageRoutes, d: DashboardDeps) => void;

/**
 * The slots of the pages that show several capabilities' records (docs/dashboard.md, "Shared pages"), by name: what
 * the page hands each section (`at`) and what a section gives back (`shows`). The page that has a slot adds it from
 * its own file (`declare module` of this file), so this file names none.
 */
// biome-ignore lint/suspicious/noEmptyInterface: each shared page adds its slots by declaration merging.
export interface PageSlots {}

/** What a slot hands its sections and takes from them. */
export interface Slot {
  at: unknown;
  shows: unknown;
}

/**
 * A section a capability adds to a shared page (docs/architecture.md, "A capability's anatomy"): it loads what it
 * shows and renders it. The page loads its sections in parallel and places them by `order`, smallest first (equal
 * ones in the capability list's order).
 */
export interface PageSection<S extends Slot> {
  order: number;
  /** The scope a user needs to see it: without it the section is neither loaded nor shown. */
  scope?: Scope;
  /** The role it is for, where it is for one. */
  role?: Role;
  /** Loads and renders the section; null shows nothing. */
  render(d: DashboardDeps, s: SessionContext, at: S['at']): Promise<S['shows'] | null>;
}

type SectionsBySlot = { readonly [K in keyof PageSlots]: readonly PageSection<SlotOf<K>>[] };
/** The slot named `K`. */
export type SlotOf<K extends keyof PageSlots> = PageSlots[K] extends Slot ? PageSlots[K] : never;
/** A capability's sections of the shared pages, by slot. */
export type PageSections = Partial<SectionsBySlot>;
/** Every capability's sections, by slot, each slot's in order. */
export type ComposedSections = Partial<SectionsBySlot>;

/**
 * What a capability adds to the dashboard: its navigation entries, its pages, registered in the order given (a fixed
 * path such as `/dashboard/learners/new` before `/dashboard/learners/:id`), and its sections of the shared pages.
 */
export interface DashboardPages {
  nav?: readonly NavEntry[];
  pages?: readonly PageRegistrar[];
  sections?: PageSections;
}
