import { randomUUID } from 'node:crypto';
import {
  checkOutgoingEmail,
  mailboxAddress,
  type Mailer,
  type OutgoingEmail,
  type SendFailure,
  type SendResult,
} from '@fundi/domain/notifications';

export interface FakeSentEmail extends OutgoingEmail {
  messageId: string;
}

interface Refusal {
  /** A bare address (case-insensitive), or null for every recipient. */
  address: string | null;
  failure: SendFailure;
  remaining: number;
}

/** A Mailer that keeps what it sends in `sent`; tests make sends fail with `failFor`. */
export class FakeMailer implements Mailer {
  readonly sent: FakeSentEmail[] = [];
  private readonly refusals: Refusal[] = [];

  /** The next `times` sends to `address` (null: to anyone) fail with `failure` and are not kept. */
  failFor(address: string | null, failure: SendFailure, times = Number.POSITIVE_INFINITY): void {
    this.refusals.push({ address: address?.toLowerCase() ?? null, failure, remaining: times });
  }

  async send(message: OutgoingEmail): Promise<SendResult> {
    checkOutgoingEmail(message);
    const to = mailboxAddress(message.to, 'to').toLowerCase();
    const refusal = this.refusals.find((r) => r.remaining > 0 && (r.address === null || r.address === to));
    if (refusal) {
      refusal.remaining -= 1;
      return { ok: false, failure: refusal.failure };
    }
    const messageId = `<${randomUUID()}@fake.mailer>`;
    this.sent.push({ ...message, headers: { ...message.headers }, messageId });
    return { ok: true, messageId, accepted: [mailboxAddress(message.to, 'to')] };
  }
}
