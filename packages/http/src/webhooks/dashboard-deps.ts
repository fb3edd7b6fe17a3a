import type { WebhookSubscriptionUseCases } from '@fundi/application/webhooks';

declare module '../dashboard/dashboard-deps.js' {
  /** The webhooks use cases the dashboard's pages call (docs/architecture.md, "A capability's anatomy"). */
  interface DashboardDeps {
    webhooks: WebhookSubscriptionUseCases;
  }
}
