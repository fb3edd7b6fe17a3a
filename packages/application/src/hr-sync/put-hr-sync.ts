import { DomainError, isDomainError, newId } from '@fundi/domain';
import { WebhookSubscription, generateWebhookSecret, parseWebhookUrl } from '@fundi/domain/webhooks';
import { HrSyncConfig, type HrSyncInput } from '@fundi/domain/hr-sync';
import type { Actor } from '../common/actor.js';
import { recordChange } from '../common/record-change.js';
import { switchSubscription } from '../webhooks/enablement.js';
import type { HrSyncDeps } from './hr-sync-ports.js';
import { requireAdmin } from './hr-sync-ports.js';
import { hrSubscriptionPurpose } from './hr-subscription.js';
import { hrSyncView, type HrSyncView } from './hr-sync-view.js';
import { inboundUrl } from './hr-inbound-url.js';
import { subscriptionOf } from './hr-outbound-subscription.js';

export type HrSyncWithSecret = HrSyncView & { signingSecret?: string };

/**
 * `PUT /hr-sync`: fields given replace the stored ones. `outboundUrl` follows the webhook URL rules (https, no
 * private address). The first outboundUrl creates the outbound subscription and answers its signing secret, this
 * once. The subscription is enabled exactly while HR sync is enabled with an outboundUrl, so a PUT with
 * `enabled: true` also restarts deliveries stopped after failures.
 */
export class PutHrSync {
  constructor(private readonly deps: HrSyncDeps) {}

  async execute(actor: Actor, input: HrSyncInput, origin: string): Promise<HrSyncWithSecret> {
    requireAdmin(actor);
    const now = this.deps.clock.now();
    const url =
      input.outboundUrl === undefined || input.outboundUrl === null
        ? input.outboundUrl
        : await this.checked(input.outboundUrl);
    return this.deps.uow.run(async (tx) => {
      const stored = (await tx.hrSyncConfigs.find(actor.tenantId)) ?? HrSyncConfig.initial(actor.tenantId, now);
      const next = HrSyncConfig.update(stored, input, url, now);
      let sub = await subscriptionOf(tx, next);
      let signingSecret: string | undefined;
      const wanted = next.enabled && next.outboundUrl !== null;
      if (next.outboundUrl && !sub) {
        signingSecret = generateWebhookSecret();
        sub = WebhookSubscription.forPurpose(hrSubscriptionPurpose, {
          id: newId('whs', now.getTime()),
          tenantId: actor.tenantId,
          url: next.outboundUrl,
          enabled: wanted,
          secretCiphertext: this.deps.box.seal(signingSecret),
          now,
        });
        await tx.webhookSubscriptions.insert(sub);
        next.subscriptionId = sub.id;
      } else if (sub) {
        if (next.outboundUrl && next.outboundUrl !== sub.url) {
          sub = WebhookSubscription.retarget(sub, next.outboundUrl, now);
          await tx.webhookSubscriptions.update(sub);
        }
        sub = (await switchSubscription(tx, actor, sub, wanted, 'disabled_by_api', now)).subscription;
      }
      await tx.hrSyncConfigs.save(next);
      await recordChange(tx, actor, now, {
        action: 'hr_sync.configured',
        resourceType: 'hr_sync',
        resourceId: actor.tenantId,
        details: { fields: Object.keys(input), enabled: next.enabled, outboundUrlSet: next.outboundUrl !== null },
      });
      const view = hrSyncView(next, await inboundUrl(this.deps, tx, actor.tenantId, origin), sub);
      return signingSecret ? { ...view, signingSecret } : view;
    });
  }

  private async checked(value: unknown): Promise<string> {
    const url = parseWebhookUrl(value, this.deps.policy, 'outboundUrl');
    try {
      await this.deps.receiverCheck(url);
    } catch (e) {
      if (isDomainError(e) && e.kind === 'invalid')
        throw DomainError.invalid('outboundUrl', e.details[0]?.message ?? e.message);
      throw e;
    }
    return url;
  }
}
