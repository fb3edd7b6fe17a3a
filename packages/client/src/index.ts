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

/**
 * A typed client for every operation of the API (docs/api.md; README "Typed client"). Paths, parameters, bodies
 * and answers are checked at compile time against the OpenAPI document the server serves.
 */
export function createFundiClient(o: FundiClientOptions): Client<paths> {
  const client = createClient<paths>({ baseUrl: o.baseUrl.replace(/\/$/, ''), ...(o.fetch ? { fetch: o.fetch } : {}) });
  const auth: Middleware = {
    onRequest({ request }) {
      request.headers.set('Authorization', `Bearer ${o.apiKey}`);
      return request;
    },
  };
  client.use(auth);
  return client;
}
