import type { DomainError, Page, PageRequest } from '@fundi/domain';
import { z } from '../schemas/common.js';

export interface ErrorAnswer {
  status: number;
  body: unknown;
}

/**
 * One API form (docs/api.md "Two API forms"): where it is mounted, how it pages, and how it writes errors. Routes are declared once;
 * each form presents them under its own prefixes with its own envelopes.
 */
export interface ApiForm {
  readonly name: 'A' | 'B';
  /** Koa-router prefixes; Form B's carry the `:slug` parameter. */
  readonly prefixes: readonly string[];
  /** The status for invalid input: 422 (A) or 400 (B). */
  readonly validationStatus: 400 | 422;
  /** Query parameters that page a list, merged into the route's own query schema. */
  readonly pageQuery: z.ZodObject<z.ZodRawShape>;
  /**
   * `scope` names what a page belongs to (the tenant and the list's filters): a cursor issued for one scope is
   * refused in another.
   */
  toPage(query: Record<string, unknown>, scope: string): PageRequest;
  /** `cursorKey`: the item field a cursor carries when it is not `id` (route.ts, `ListSpec`). */
  envelope(page: Page<{ id?: string } | unknown>, request: PageRequest, scope: string, cursorKey?: string): unknown;
  error(e: DomainError): ErrorAnswer;
  /** OpenAPI: the pagination object and the error envelope of this form. */
  readonly paginationSchema: z.ZodType;
  readonly errorSchema: z.ZodType;
  /**
   * Where a request path falls in this form: the resource (first segment after the prefix, `learners`), or null
   * when the path is not under this form's prefixes.
   */
  resourceOf(path: string): string | null;
  /** Whether errors on this path are written in this form's envelope. */
  ownsPath(path: string): boolean;
  /** The 500 answer body, which leaks nothing. */
  internalError(): unknown;
  /** OpenAPI: the mounts of this form (path prefix with `{slug}` style parameters, operationId suffix). */
  readonly openApiMounts: readonly { prefix: string; suffix: string }[];
  /** OpenAPI: the path parameters every route of this form has (Form B: the tenant slug). */
  readonly openApiPathParams?: z.ZodObject<z.ZodRawShape>;
}

/** The first path segment of `rest` (what follows a form's prefix). */
export function firstSegment(rest: string): string {
  const end = rest.indexOf('/');
  return end < 0 ? rest : rest.slice(0, end);
}

/**
 * A paging number: plain decimal digits only (`0x10`, `1e2`, `10.0`, `+10` and empty are refused), within bounds.
 */
export function pagingInt(min: number, max: number, description: string, fallback: number) {
  return z
    .string()
    .regex(/^\d{1,9}$/, `must be a whole number from ${min} to ${max}`)
    .transform(Number)
    .pipe(
      z
        .number()
        .min(min, `must be a whole number from ${min} to ${max}`)
        .max(max, `must be a whole number from ${min} to ${max}`),
    )
    .optional()
    .openapi({ type: 'integer', minimum: min, maximum: max, default: fallback, description });
}

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;
