import type { SecretBox, TenantRepos } from '@fundi/domain';
import type { WebhookRepos } from '@fundi/domain/webhooks';

/**
 * After a master-key rotation: seals every subscription's signing secrets (current and previous) again under the
 * current master key, so the old key can leave the configuration. Secrets already under it are left alone.
 */
export class ResealWebhookSecrets {
  constructor(
    private readonly deps: {
      repos: Pick<WebhookRepos, 'webhookSubscriptions'> & Pick<TenantRepos, 'tenants'>;
      box: SecretBox;
    },
  ) {}

  async execute(): Promise<number> {
    const tenants = await this.deps.repos.tenants.list();
    const subs = await this.deps.repos.webhookSubscriptions.listForTenants(tenants.map((t) => t.id));
    let resealed = 0;
    for (const s of subs) {
      const stale = (c: string | null) => c !== null && !this.deps.box.isCurrent(c);
      if (!stale(s.secretCiphertext) && !stale(s.previousSecretCiphertext)) continue;
      const again = (c: string | null) => (c === null ? null : this.deps.box.seal(this.deps.box.open(c)));
      await this.deps.repos.webhookSubscriptions.update({
        ...s,
        secretCiphertext: again(s.secretCiphertext)!,
        previousSecretCiphertext: again(s.previousSecretCiphertext),
      });
      resealed++;
    }
    return resealed;
  }
}
