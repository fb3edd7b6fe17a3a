import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { components, paths } from './schema.js';

export type { components, paths };

/** A schema of the API by name, e.g. `Schema<'Learner'>`. */
export type Schema<N extends keyof components['schemas']> = components['schemas'][N];

export interface FundiClientOptions {
  /** Where the service runs, e.g. `https://fundi.example.co.za` (no trailing `/api/v1`). */
  baseUrl: string;
  /** An API key, `fnd_live_...`: sent as `Authorization: Bearer <key>`. */
  apiKey: string;
  /** A fetch implementation (defaults to the global one). */
  fetch?: typeof fetch;
}

const isFile = (v: unknown): v is Blob => v instanceof Blob;

/**
 * How the client sends a request body. A body holding a `Blob` (a `File` included) is an upload of a multipart
 * route: it goes as `multipart/form-data`, the text fields first, then the file part (a `File` keeps its name as
 * the part's file name); fetch writes the boundary. `FormData` and a bare `Blob` (a raw upload) go as they are;
 * anything else as JSON.
 */
export function fundiBodySerializer(body: unknown): FormData | Blob | string {
  if (body instanceof FormData || isFile(body)) return body;
  if (body === null || typeof body !== 'object' || !Object.values(body).some(isFile)) return JSON.stringify(body);
  const form = new FormData();
  const parts = Object.entries(body).filter(([, v]) => v !== undefined && v !== null);
  for (const [name, v] of parts)
    if (!isFile(v)) form.append(name, typeof v === 'object' ? JSON.stringify(v) : String(v));
  for (const [name, v] of parts) if (isFile(v)) form.append(name, v);
  return form;
}

/**
 * A typed client for every operation of the API (docs/api.md; README "Typed client"). Paths, parameters, bodies
 * and answers are checked at compile time against the OpenAPI document the server serves; a file part is a `Blob`
 * (or `File`) and is sent as multipart by `fundiBodySerializer`.
 */
export function createFundiClient(o: FundiClientOptions): Client<paths> {
  const client = createClient<paths>({
    baseUrl: o.baseUrl.replace(/\/$/, ''),
    bodySerializer: fundiBodySerializer,
    ...(o.fetch ? { fetch: o.fetch } : {}),
  });
  const auth: Middleware = {
    onRequest({ request }) {
      request.headers.set('Authorization', `Bearer ${o.apiKey}`);
      return request;
    },
  };
  client.use(auth);
  return client;
}
