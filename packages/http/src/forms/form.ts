import type { DomainError, Page, PageRequest } from '@fundi/domain';
import type { z } from 'zod';

export interface ErrorAnswer {
  status: number;
  body: unknown;
}

/**
 * One API form (D1): where it is mounted, how it pages, and how it writes errors. Routes are declared once;
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
  toPage(query: Record<string, unknown>): PageRequest;
  envelope(page: Page<{ id?: string } | unknown>, request: PageRequest): unknown;
  error(e: DomainError): ErrorAnswer;
  /** OpenAPI: the pagination object and the error envelope of this form. */
  readonly paginationSchema: z.ZodType;
  readonly errorSchema: z.ZodType;
}

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;
