import { DomainError } from '@fundi/domain';
import {
  sendFailure,
  type MessagingChannel,
  type MessagingResult,
  type TemplateMessage,
} from '@fundi/domain/notifications';
import type { CountryCode } from 'libphonenumber-js/max';
import { Agent, request } from 'undici';
import { toE164Mobile } from './phone-numbers.js';
import { cloudApiFailure } from './whatsapp-errors.js';

export interface WhatsAppCloudSettings {
  /** The Graph API origin (`https://graph.facebook.com`); configurable for a proxy or a test server. */
  baseUrl: string;
  /** The Graph API version in the path (`v21.0`). */
  apiVersion: string;
  /** The business phone number's id, which names the sender. */
  phoneNumberId: string;
  accessToken: string;
  /** The whole request, answer included (default 10 s). */
  timeoutMs?: number;
  /** The country of numbers written without a country code (default ZA). */
  defaultRegion?: CountryCode;
}

const TEMPLATE_NAME = /^[a-z0-9_]{1,512}$/;
const LANGUAGE = /^[a-z]{2,3}(_[A-Z]{2})?$/;

/** Sends WhatsApp template messages through the Cloud API: one HTTPS POST per message, bearer-token authenticated. */
export class WhatsAppCloudChannel implements MessagingChannel {
  private readonly url: string;
  private readonly headers: Record<string, string>;
  /** Kept-open connections to the provider (undici): no TLS handshake per message, no fetch overhead. */
  private readonly agent: Agent;

  constructor(private readonly s: WhatsAppCloudSettings) {
    this.url = `${s.baseUrl.replace(/\/+$/, '')}/${s.apiVersion}/${encodeURIComponent(s.phoneNumberId)}/messages`;
    this.headers = { authorization: `Bearer ${s.accessToken}`, 'content-type': 'application/json' };
    const timeout = s.timeoutMs ?? 10_000;
    this.agent = new Agent({
      connections: 32,
      keepAliveTimeout: 30_000,
      headersTimeout: timeout,
      bodyTimeout: timeout,
    });
  }

  /** Ends the kept-open connections. */
  close(): Promise<void> {
    return this.agent.close();
  }

  async send(m: TemplateMessage): Promise<MessagingResult> {
    const to = toE164Mobile(m.to, this.s.defaultRegion ?? 'ZA', 'to');
    if (!TEMPLATE_NAME.test(m.template))
      throw DomainError.invalid('template', 'must be lower-case letters, digits and underscores');
    if (!LANGUAGE.test(m.language))
      throw DomainError.invalid('language', 'must be a language code such as en or en_US');
    m.parameters.forEach((p, i) => {
      if (!p.trim()) throw DomainError.invalid(`parameters.${i}`, 'must not be empty');
    });
    let status: number;
    let text: string;
    let retryAfter: string | null;
    try {
      const res = await request(this.url, {
        method: 'POST',
        dispatcher: this.agent,
        headers: this.headers,
        body: JSON.stringify(templateBody(to, m)),
      });
      status = res.statusCode;
      const ra = res.headers['retry-after'];
      retryAfter = Array.isArray(ra) ? (ra[0] ?? null) : (ra ?? null);
      text = await res.body.text();
    } catch (e) {
      return { ok: false, failure: networkFailure(e) };
    }
    const answer = parseJson(text);
    if (status >= 200 && status < 300) {
      const id = (answer as { messages?: { id?: unknown }[] } | null)?.messages?.[0]?.id;
      if (typeof id === 'string' && id) return { ok: true, providerMessageId: id };
      // Accepted or not, we cannot tell: sending again could deliver it twice, so this is final.
      return {
        ok: false,
        failure: sendFailure('rejected', status, `answer without a message id: ${text.slice(0, 200)}`),
      };
    }
    return { ok: false, failure: cloudApiFailure(status, answer, retryAfter, Date.now()) };
  }
}

/** The Cloud API body of a template message; parameters fill the body's `{{1}}`, `{{2}}`, ... in order. */
export function templateBody(to: string, m: TemplateMessage): Record<string, unknown> {
  const components = m.parameters.length
    ? [{ type: 'body', parameters: m.parameters.map((text) => ({ type: 'text', text })) }]
    : [];
  return {
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    to,
    type: 'template',
    template: { name: m.template, language: { code: m.language }, components },
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function networkFailure(e: unknown) {
  const err = e as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = (e as { code?: string }).code;
  if (
    err.name === 'TimeoutError' ||
    err.name === 'AbortError' ||
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_BODY_TIMEOUT'
  )
    return sendFailure('unavailable', 'ETIMEDOUT', 'no answer within the time limit');
  return sendFailure(
    'unavailable',
    err.cause?.code ?? code ?? null,
    err.cause?.message ?? err.message ?? 'request failed',
  );
}
