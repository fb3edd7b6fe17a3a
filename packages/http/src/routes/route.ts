import type { Readable } from 'node:stream';
import type { Actor, ActorType, UploadFields, WithActors } from '@fundi/application';
import type { Page, PageRequest, Scope } from '@fundi/domain';
import type { z } from 'zod';

export type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';

/** A list's item schema, and the item field Form A's cursor carries when it is not `id`. */
export interface ListSpec {
  item: z.ZodType;
  cursorKey?: string;
}

type Obj = z.ZodObject<z.ZodRawShape>;
type Out<S> = S extends z.ZodType ? z.output<S> : undefined;
/** The handler's body: the JSON body, or a multipart upload's text fields (known early or after the file). */
type BodyOf<BS, UP> = UP extends { kind: 'multipart' } ? UploadFields<Out<BS>> : Out<BS>;

/**
 * A request body that carries a file, read as a stream (never held in memory whole).
 * - `multipart`: `multipart/form-data` with text fields (validated by the route's `body` schema) and one file part
 *   named `field`, in any order. The handler's `body` is then `UploadFields`: the fields before the file when they
 *   alone are valid (a bad one among them is refused before the file is read), and all of them once the body has
 *   ended. A field given again after the file part, or a second file part, is invalid input.
 * - `raw`: the whole body is the file (`PUT` of bytes), any content type unless `contentTypes` lists them.
 * In both, a body larger than `maxBytes` is refused with 413 as soon as it passes the limit: at once when the
 * declared `Content-Length` is too large, otherwise when the running count passes it.
 */
export type Upload =
  | { kind: 'multipart'; field: string; maxBytes: number; description?: string }
  | { kind: 'raw'; maxBytes: number; contentTypes?: readonly string[]; description?: string };

/** The file of an upload, as the handler sees it. Reading `stream` past the limit fails with 413. */
export interface IncomingFile {
  stream: Readable;
  /** The file name the client gave (multipart), or null. Only a hint: never trusted for the type. */
  filename: string | null;
  /** The content type the client declared, or null. Only a hint: never trusted for the type. */
  declaredType: string | null;
  /** The declared length of a raw body, or null (multipart, chunked). */
  declaredSize: number | null;
}

/** A byte range of a file, both ends inclusive. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * A file answer. With `size`, the response has a `Content-Length`, honours `Range` (206, 416), `If-None-Match`
 * (304, with `etag`) and `HEAD` without opening the file; without it, the body is streamed chunked (a ZIP or CSV
 * written while it is sent).
 */
export interface FileAnswer {
  contentType: string;
  size?: number;
  /** Offered to the client in `Content-Disposition` (RFC 6266, with a UTF-8 `filename*`). */
  filename?: string;
  disposition?: 'attachment' | 'inline';
  /** A strong validator, without quotes. */
  etag?: string;
  /** Default `private, no-store`: files are personal data. */
  cacheControl?: string;
  /** Opens the bytes (the given range only, when ranged). */
  open(range?: ByteRange): Promise<Readable> | Readable;
}

/** Describes a file answer in the OpenAPI document. */
export interface FileSpec {
  contentTypes: readonly string[];
  /** The answer has a known size and honours `Range`, `If-None-Match` and `HEAD`. */
  ranges?: boolean;
}

export type Success =
  | {
      status: 200 | 201 | 202;
      schema: z.ZodType;
      description: string;
      /** A second success status for some answers (the same schema): e.g. 200 for a dry run of a 202 job. */
      alternate?: { status: 200; description: string; when(result: unknown): boolean };
    }
  | { status: 200 | 202 | 204; description: string }
  | { status: 200; file: FileSpec; description: string };

/** An answer's type as a handler returns it: actors may still be ids (`actors: true` routes expand them). */
type Unexpanded<T> = T extends { type: ActorType; id: string; name: string | null }
  ? T | string
  : T extends readonly (infer U)[]
    ? Unexpanded<U>[]
    : T extends object
      ? { [K in keyof T]: Unexpanded<T[K]> }
      : T;

/** What a handler must return for a route: checked at compile time against the success schema. */
export type ResultOf<S, L> = L extends { item: infer I extends z.ZodType }
  ? Page<Unexpanded<z.input<I>>>
  : S extends { schema: infer X extends z.ZodType }
    ? Unexpanded<z.input<X>>
    : S extends { file: FileSpec }
      ? FileAnswer
      : void;

export interface HandlerInput<P, Q, B> {
  actor: Actor;
  params: P;
  query: Q;
  body: B;
  /** Set for list routes: the form's paging, already validated. */
  page: PageRequest;
  requestId: string;
  /** Set for upload routes. */
  file: IncomingFile | undefined;
  /** The client address (behind a proxy only when the proxy is trusted), for audit records. */
  ip: string;
  /** `scheme://host` the request was made to, for absolute links when no public URL is configured. */
  origin: string;
  /** The request headers, lower-case names (routes with their own credential read it here). */
  headers: Record<string, string | string[] | undefined>;
  /**
   * Shows a value's actor ids as `{type, id, name}` (docs/api.md, "Who did it"); for routes without a key, which
   * learn their tenant only from their own credential (routes with a key declare `actors: true` instead).
   */
  expandActors<T>(tenantId: string, value: T): Promise<WithActors<T>>;
}

/** A route without an API key (a signed URL is its credential): no actor; Form B's slug is passed on unchecked. */
export interface PublicHandlerInput<P, Q, B> extends Omit<HandlerInput<P, Q, B>, 'actor'> {
  actor: null;
  /** Form B's tenant slug from the path, or null under Form A; the handler checks it against its credential. */
  tenantSlug: string | null;
}

type InputFor<AU, P, Q, B> = AU extends 'none' ? PublicHandlerInput<P, Q, B> : HandlerInput<P, Q, B>;

/**
 * One operation of the API, declared once and served in both forms. Paths use `{name}` parameters and are
 * relative to the form's prefix. Schemas validate the request, type the handler's input and output, and generate
 * the OpenAPI document.
 */
export interface RouteDef<
  PS extends Obj | undefined = Obj | undefined,
  QS extends Obj | undefined = Obj | undefined,
  BS extends z.ZodType | undefined = z.ZodType | undefined,
  S extends Success = Success,
  L extends ListSpec | undefined = ListSpec | undefined,
  AU extends 'key' | 'none' = 'key' | 'none',
  UP extends Upload | undefined = Upload | undefined,
> {
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  method: Method;
  path: string;
  /** `none`: no API key; the route's own credential (a signed URL) is checked by its handler. */
  auth?: AU;
  /** The scope an API key needs (`any`: any valid key); absent only on `auth: 'none'` routes. */
  scope: AU extends 'none' ? undefined : Scope | 'any';
  /**
   * Another system's calls, authenticated by their own long random secret (HR inbound): counted per client address
   * at the inbound rate instead of the lower rate for requests without a key (docs/api.md, "Rate limits").
   */
  inbound?: true;
  params?: PS;
  query?: QS;
  /** JSON body, or the text fields of a multipart upload. */
  body?: BS;
  upload?: UP;
  /**
   * A list route answers `Page<item>` in the form's pagination envelope. Form A's cursor carries the last item's
   * `id`, or for items without one the field `cursorKey` names (the handler pages by the same key: `pageInOrder`).
   */
  list?: L;
  /**
   * The answer names actors by id (`recordedBy`, `reviewedBy`, ...): they are shown as `{type, id, name}`
   * (docs/api.md, "Who did it"). The response check of the test server fails a route that forgets this.
   */
  actors?: true;
  success: S;
  /**
   * Writes the answer's JSON text when it is an object of one fixed shape (`jsonWriter`): the text JSON.stringify
   * gives, made faster. Not used for `actors: true` routes, whose answers are rewritten before they are sent.
   */
  json?: (result: object) => string;
  /**
   * Where the resource a 201 made is read, relative to the form's prefix (`/evidence/evd_...`): the answer's
   * `Location` under the prefix the request came through (docs/api.md, "Two API forms"). Left out, a `POST` to a
   * collection points at `<path>/{id}` and one to a singleton at its own path, where the route list reads them; a
   * 201 route with neither is refused when it is mounted.
   */
  location?: (result: ResultOf<S, L>) => string;
  /** Extra error statuses beyond the ones every authenticated route has (401, 403, 429, 500, and 400/422 with input). */
  errors?: (401 | 403 | 404 | 409 | 410 | 413 | 415 | 422)[];
  handle(input: InputFor<AU, Out<PS>, Out<QS>, BodyOf<BS, UP>>): Promise<ResultOf<S, L>>;
}

/** Identity with inference: declares a route with its handler's input and output typed from its schemas. */
export function route<
  PS extends Obj | undefined,
  QS extends Obj | undefined,
  BS extends z.ZodType | undefined,
  const S extends Success,
  L extends ListSpec | undefined = undefined,
  AU extends 'key' | 'none' = 'key',
  const UP extends Upload | undefined = undefined,
>(def: RouteDef<PS, QS, BS, S, L, AU, UP>): RouteDef {
  // The route lists hold routes of every shape: the declaration, checked above, widens to the general `RouteDef`
  // (its handler is a method, whose parameter is compared both ways).
  return def;
}

export type ListResult = Page<unknown>;
