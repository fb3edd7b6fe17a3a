import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { SPECIAL_CODES } from './forms/error-table.js';

/** A request line whose path is Form B's (`/api/v1/tenants/{slug}/...` or `/v1/tenants/{slug}/...`). */
const FORM_B_REQUEST_LINE = /^[A-Z]+ \/(?:api\/)?v1\/tenants\/[^/?\s]+(?:[/?\s]|$)/;

/**
 * Answers what Node refuses before Koa sees a request (headers over its 16 KB limit, malformed requests) and what
 * it cuts short (a request not received within the server's `headersTimeout` or `requestTimeout`) in the error
 * envelope of the form the request's path names (Form A unless it is a Form B path), instead of a bare status
 * line. A connection whose answer has begun is closed without one. Attach to every server that serves the app.
 */
export function answerClientErrors(server: Server): void {
  // Each connection's request under way: a timeout reports no raw packet, and may come after an answer began.
  const current = new WeakMap<object, ServerResponse>();
  server.on('request', (req: IncomingMessage, res: ServerResponse) => current.set(req.socket, res));
  server.on('clientError', (err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex) => {
    // A finished answer belongs to the connection's previous request, not to the one that failed.
    const res = current.get(socket)?.writableFinished === false ? current.get(socket) : undefined;
    if (!socket.writable || res?.headersSent) return void socket.destroy();
    const [codes, message] =
      err.code === 'HPE_HEADER_OVERFLOW'
        ? [SPECIAL_CODES.headers_too_large!, 'The request headers exceed 16 KB']
        : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [SPECIAL_CODES.request_timeout!, 'The request did not arrive in time']
          : [SPECIAL_CODES.bad_request!, 'The request is not valid HTTP'];
    const { status } = codes;
    const line = err.rawPacket?.subarray(0, 512).toString('latin1') ?? (res ? `${res.req.method} ${res.req.url}` : '');
    const body = JSON.stringify(
      FORM_B_REQUEST_LINE.test(line)
        ? { error: { code: codes.B, message, details: {} } }
        : { error: { code: codes.A, message, details: [] } },
    );
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
