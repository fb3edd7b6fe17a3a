import { deliveryTask, secretOpener, type DeliveryTask } from './delivery-task.js';
import type { WebhookDeps } from './webhook-ports.js';

/**
 * Leases due deliveries to `owner` and prepares them: the webhook envelope, and the opened signing secrets. The claim
 * is atomic by itself, so it needs no unit of work (one round trip on Postgres).
 */
export class ClaimDeliveries {
  constructor(private readonly deps: Pick<WebhookDeps, 'repos' | 'clock' | 'box' | 'purposes'>) {}

  async execute(owner: string, limit: number, leaseMs: number): Promise<DeliveryTask[]> {
    const now = this.deps.clock.now();
    const claimed = await this.deps.repos.webhookDeliveries.claimDue(
      owner,
      now.toISOString(),
      new Date(now.getTime() + leaseMs).toISOString(),
      limit,
    );
    const open = secretOpener(this.deps.box);
    return claimed.map((c) => deliveryTask(c, now, open, this.deps.purposes));
  }
}
