import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A template message body as the Cloud API receives it. */
export interface CloudApiMessage {
  messaging_product: string;
  recipient_type: string;
  to: string;
  type: string;
  template: {
    name: string;
    language: { code: string };
    components: { type: string; parameters: { type: string; text: string }[] }[];
  };
}

export interface CloudApiRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: CloudApiMessage;
  /** The message id answered, when the request was accepted. */
  messageId: string | null;
}

/** How the server answers messages to one number. */
export type CloudApiAnswer =
  | { status: number; code?: number; message?: string; retryAfter?: string }
  | { hang: true }
  | { raw: string; status: number };

export interface TestCloudApi {
  baseUrl: string;
  requests: CloudApiRequest[];
  /** Answers messages whose `to` is `to` (as sent) with `answer`; `'*'` for every number. */
  answer(to: string, answer: CloudApiAnswer): void;
  close(): Promise<void>;
}

/**
 * A stand-in for the WhatsApp Cloud API on 127.0.0.1 (port 0): it answers `POST /{version}/{phone-number-id}/messages`
 * like Meta does, with a `wamid.` message id, or with the error envelope `{error:{message, type, code, fbtrace_id}}`.
 */
export async function startCloudApi(): Promise<TestCloudApi> {
  const requests: CloudApiRequest[] = [];
  const answers = new Map<string, CloudApiAnswer>();
  const hanging: ServerResponse[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as CloudApiMessage;
      const a = answers.get(String(body.to)) ?? answers.get('*');
      const record = (messageId: string | null) =>
        requests.push({ path: req.url ?? '', headers: req.headers, body, messageId });
      const json = (status: number, value: unknown, headers: Record<string, string> = {}) =>
        res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(value));
      if (!a) {
        const id = `wamid.${Buffer.from(randomUUID()).toString('base64url')}`;
        record(id);
        return json(200, {
          messaging_product: 'whatsapp',
          contacts: [{ input: body.to, wa_id: String(body.to).replace('+', '') }],
          messages: [{ id }],
        });
      }
      record(null);
      if ('hang' in a) return void hanging.push(res);
      if ('raw' in a) return void res.writeHead(a.status, { 'content-type': 'application/json' }).end(a.raw);
      const error = {
        message: a.message ?? `error ${a.status}`,
        type: 'OAuthException',
        code: a.code ?? a.status,
        fbtrace_id: 'A1b2C3',
      };
      json(a.status, { error }, a.retryAfter ? { 'retry-after': a.retryAfter } : {});
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise((ok) => server.once('listening', ok));
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    answer: (to, a) => void answers.set(to, a),
    async close() {
      for (const r of hanging) r.destroy();
      server.closeAllConnections();
      await new Promise((ok) => server.close(ok));
    },
  };
}
