import { DomainError } from '../common/errors.js';

/** One recipient of an RFC 3464 delivery status notification (an asynchronous bounce or delay warning). */
export interface DsnRecipient {
  /** The address the reporting server tried (`Final-Recipient`, the `rfc822;` type dropped). */
  recipient: string;
  /** `Original-Recipient` when the report carries it. */
  originalRecipient: string | null;
  /** `failed`, `delayed`, `delivered`, `relayed` or `expanded`. */
  action: string;
  /** The enhanced status code (`5.1.1`). */
  status: string;
  /** `hard`: permanent (5.x.x); `soft`: temporary (4.x.x, or a delay warning); `null`: not a failure at all. */
  bounce: 'hard' | 'soft' | null;
  /** `Diagnostic-Code`, the remote server's words (`smtp; 550 5.1.1 no such user`). */
  diagnostic: string | null;
}

export interface DeliveryReport {
  reportingMta: string | null;
  /** The Message-ID of the bounced message, when the report returns its headers (lets a bounce find its notification). */
  originalMessageId: string | null;
  recipients: DsnRecipient[];
}

const ACTIONS = new Set(['failed', 'delayed', 'delivered', 'relayed', 'expanded']);

/**
 * Reads a delivery status notification: either the whole `multipart/report` message or just its
 * `message/delivery-status` part. DomainError('invalid', 'invalid_delivery_report') when there is no per-recipient
 * block with a known Action and an enhanced Status code.
 */
export function parseDeliveryReport(raw: string): DeliveryReport {
  const text = raw.replace(/\r\n/g, '\n');
  const parts = reportParts(text);
  const status = parts?.find((p) => /^(message\/(global-)?delivery-status)\b/i.test(p.type));
  const headersPart = parts?.find((p) => /^(text\/rfc822-headers|message\/rfc822)\b/i.test(p.type));
  const groups = (status ? status.body : text)
    .split(/\n[ \t]*\n/)
    .map(fields)
    .filter((g) => g.size > 0);
  const [perMessage, ...rest] = groups;
  const recipients = (perMessage?.has('final-recipient') ? groups : rest).map(recipientOf);
  if (!recipients.length) throw invalid('no recipient block with Final-Recipient, Action and Status');
  const originalId = headersPart ? fields(headersPart.body.split(/\n[ \t]*\n/)[0] ?? '').get('message-id') : undefined;
  return {
    reportingMta: perMessage?.has('final-recipient') ? null : (typed(perMessage?.get('reporting-mta')) ?? null),
    originalMessageId: originalId ?? null,
    recipients,
  };
}

function recipientOf(g: Map<string, string>): DsnRecipient {
  const recipient = typed(g.get('final-recipient'));
  const action = g
    .get('action')
    ?.toLowerCase()
    .replace(/\(.*\)/, '')
    .trim();
  const status = /^([245])\.\d{1,3}\.\d{1,3}/.exec(g.get('status') ?? '')?.[0];
  if (!recipient) throw invalid('a recipient block has no Final-Recipient');
  if (!action || !ACTIONS.has(action)) throw invalid(`unknown Action for ${recipient}`);
  if (!status) throw invalid(`no enhanced Status code for ${recipient}`);
  return {
    recipient,
    originalRecipient: typed(g.get('original-recipient')) ?? null,
    action,
    status,
    bounce: bounceOf(action, status),
    diagnostic: g.get('diagnostic-code') ?? null,
  };
}

function bounceOf(action: string, status: string): 'hard' | 'soft' | null {
  if (action === 'delayed' || status.startsWith('4.'))
    return action === 'failed' || action === 'delayed' ? 'soft' : null;
  if (action === 'failed') return 'hard';
  return null;
}

/** Header-style fields of one block, names lower-cased, folded lines joined. */
function fields(block: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of block.replace(/\n[ \t]+/g, ' ').split('\n')) {
    const m = /^([A-Za-z0-9-]+):\s*(.*)$/.exec(line);
    if (m) out.set(m[1]!.toLowerCase(), m[2]!.trim());
  }
  return out;
}

/** `rfc822; user@example.com` -> `user@example.com`. */
function typed(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const i = value.indexOf(';');
  return (i >= 0 ? value.slice(i + 1) : value).trim() || undefined;
}

interface Part {
  type: string;
  body: string;
}

/** The parts of a multipart message, or null when `text` is not one. */
function reportParts(text: string): Part[] | null {
  const headerEnd = text.indexOf('\n\n');
  const contentType = fields(headerEnd >= 0 ? text.slice(0, headerEnd) : '').get('content-type') ?? '';
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  if (!/^multipart\//i.test(contentType) || !boundary) return null;
  return text
    .split(`--${boundary}`)
    .slice(1)
    .filter((p) => !p.startsWith('--'))
    .map((p) => {
      const body = p.replace(/^[ \t]*\n/, '');
      const end = body.indexOf('\n\n');
      return {
        type: fields(end >= 0 ? body.slice(0, end) : body).get('content-type') ?? 'text/plain',
        body: end >= 0 ? body.slice(end + 2) : '',
      };
    });
}

function invalid(message: string): DomainError {
  return new DomainError('invalid', 'invalid_delivery_report', `Not a delivery status notification: ${message}`, [
    { field: 'body', message },
  ]);
}
