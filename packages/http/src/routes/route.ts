import type { Actor } from '@fundi/application';
import type { Page, PageRequest, Scope } from '@fundi/domain';
import type { z } from 'zod';

export type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';

type Obj = z.ZodObject<z.ZodRawShape>;
type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface HandlerInput<P, Q, B> {
  actor: Actor;
  params: P;
  query: Q;
  body: B;
  /** Set for list routes: the form's paging, already validated. */
  page: PageRequest;
  requestId: string;
}

/**
 * One operation of the API, declared once and served in both forms (STYLE 13). Paths use `{name}` parameters
 * and are relative to the form's prefix. Schemas validate the request and generate the OpenAPI document.
 */
export interface RouteDef<PS extends Obj | undefined = Obj | undefined, QS extends Obj | undefined = Obj | undefined, BS extends z.ZodType | undefined = z.ZodType | undefined> {
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  method: Method;
  path: string;
  scope: Scope;
  params?: PS;
  query?: QS;
  body?: BS;
  /** A list route answers `Page<item>` in the form's pagination envelope. */
  list?: { item: z.ZodType };
  /** The success answer; `schema` is omitted for 204. */
  success: { status: 200 | 201 | 202 | 204; schema?: z.ZodType; description: string };
  /** Extra error statuses beyond the ones every authenticated route has (401, 403, 429, 500, and 400/422 with input). */
  errors?: (404 | 409 | 413 | 415)[];
  handle(input: HandlerInput<Out<PS>, Out<QS>, Out<BS>>): Promise<unknown>;
}

/** Identity with inference: declares a route with its handler typed from its schemas. */
export function route<PS extends Obj | undefined, QS extends Obj | undefined, BS extends z.ZodType | undefined>(
  def: RouteDef<PS, QS, BS>,
): RouteDef {
  return def as unknown as RouteDef;
}

export type ListResult = Page<unknown>;
