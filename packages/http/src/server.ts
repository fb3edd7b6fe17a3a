import { createServer, type Server } from 'node:http';
import type Koa from 'koa';
import { answerClientErrors } from './client-errors.js';

/** How long Node waits for a request's headers (docs/api.md, "A request's limits"). */
export const HEADERS_TIMEOUT_MS = 30_000;
/**
 * How long a whole request may take to arrive, body included: a 100 MB upload needs about 1.4 Mbit/s. A body that
 * stalls is answered sooner, by the body timeout (`DEFAULT_BODY_IDLE_TIMEOUT_MS`).
 */
export const REQUEST_TIMEOUT_MS = 600_000;
/** How often Node looks for connections past those limits. */
const CHECK_EVERY_MS = 5_000;

/**
 * The HTTP server of `app`, with the request limits above and Node's own refusals answered in the forms' error
 * envelopes (`answerClientErrors`). Not yet listening.
 */
export function httpServer(app: Koa): Server {
  const server = createServer(
    {
      headersTimeout: HEADERS_TIMEOUT_MS,
      requestTimeout: REQUEST_TIMEOUT_MS,
      connectionsCheckingInterval: CHECK_EVERY_MS,
    },
    app.callback(),
  );
  answerClientErrors(server);
  return server;
}
