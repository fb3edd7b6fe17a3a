import { randomUUID } from 'node:crypto';
import { Mobile } from '@fundi/domain/learners';
import type { MessagingChannel, MessagingResult, SendFailure, TemplateMessage } from '@fundi/domain/notifications';

export interface FakeSentMessage extends TemplateMessage {
  providerMessageId: string;
}

/**
 * A MessagingChannel that keeps what it sends in `sent` (with `to` normalised); tests make sends fail with
 * `failFor`. `normalise` turns a typed number into E.164 or throws DomainError('invalid', 'invalid_mobile');
 * the default reads South African numbers only, an adapter's contract test passes the adapter's own.
 */
export class FakeMessagingChannel implements MessagingChannel {
  readonly sent: FakeSentMessage[] = [];
  private readonly refusals: { to: string | null; failure: SendFailure; remaining: number }[] = [];

  constructor(private readonly normalise: (to: string) => string = (to) => Mobile.parse(to, 'to')) {}

  /** The next `times` sends to the E.164 number `to` (null: to anyone) fail with `failure` and are not kept. */
  failFor(to: string | null, failure: SendFailure, times = Number.POSITIVE_INFINITY): void {
    this.refusals.push({ to, failure, remaining: times });
  }

  async send(message: TemplateMessage): Promise<MessagingResult> {
    const to = this.normalise(message.to);
    const refusal = this.refusals.find((r) => r.remaining > 0 && (r.to === null || r.to === to));
    if (refusal) {
      refusal.remaining -= 1;
      return { ok: false, failure: refusal.failure };
    }
    const providerMessageId = `wamid.fake-${randomUUID()}`;
    this.sent.push({ ...message, to, parameters: [...message.parameters], providerMessageId });
    return { ok: true, providerMessageId };
  }
}
