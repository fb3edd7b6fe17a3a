import { receiverCheck, webhookStorage } from '@fundi/adapters/webhooks';
import type { Ports } from '@fundi/application';
import { learnersWrittenExpansion } from '@fundi/application/learners';
import {
  REPLAY_SINCE,
  ResealWebhookSecrets,
  webhookErasureStep,
  webhookRetention,
  webhookUseCases,
  type ReplaySincePayload,
  type WebhookUseCases,
} from '@fundi/application/webhooks';
import type { PlatformRepos, TenantRepos } from '@fundi/domain';
import type { WebhookRepos } from '@fundi/domain/webhooks';
import { webhookEvents, webhookRoutes, webhookPages } from '@fundi/http/webhooks';
import { capability } from './capability.js';

/** The webhook use cases, and re-sealing secrets after a master-key rotation (`fundi keys rewrap`). */
export type WebhookCapabilityUseCases = WebhookUseCases & { resealSecrets: ResealWebhookSecrets };

/**
 * Outbound webhooks. Settings (http allowed or not) come from configuration, so the capability is made per
 * configuration; the worker's delivery loops take these use cases too.
 */
export function webhooks(settings: { allowHttp: boolean; allowHosts: readonly string[] }) {
  const checkReceiver = receiverCheck(settings.allowHosts);
  return capability({
    name: 'webhooks',
    storage: webhookStorage,
    declares: {
      scopes: {
        'webhooks:read': ['admin', 'manager', 'viewer', 'integration'],
        'webhooks:write': ['admin', 'integration'],
        'webhooks:delete': ['admin'],
      },
      // Subscriptions, deliveries, delivery attempts.
      ids: ['whs', 'dlv', 'wha'],
      // Events and delivery attempts 90 days (as Svix keeps them).
      retention: [
        { kind: 'webhookEvents', days: 90, variable: 'FUNDI_RETAIN_EVENTS_DAYS' },
        { kind: 'webhookAttempts', days: 90, variable: 'FUNDI_RETAIN_ATTEMPTS_DAYS' },
      ],
      events: webhookEvents,
      offers: { learnerErasure: webhookErasureStep },
    },
    useCases: (p: Ports<WebhookRepos & PlatformRepos & TenantRepos>): WebhookCapabilityUseCases => {
      const box = p.secretBox('webhook-secret');
      return {
        ...webhookUseCases({
          ...p,
          box,
          policy: { allowHttp: settings.allowHttp, eventTypes: p.eventTypes },
          receiverCheck: checkReceiver,
          // An import batch's learners are one compact event until a subscription wants their `learner.created`.
          expansions: [learnersWrittenExpansion],
          // Other capabilities' own subscriptions: their events' bodies, their alerts when disabled.
          purposes: p.hooks.subscriptionPurpose,
        }),
        resealSecrets: new ResealWebhookSecrets({ repos: p.repos, box }),
      };
    },
    routes: webhookRoutes,
    pageDeps: (u) => ({ webhooks: u }),
    hooks: (u) => ({
      rewrap: async () => {
        const n = await u.resealSecrets.execute();
        return [{ key: 'webhookSecrets', count: n, said: `sealed ${n} webhook subscriptions' secrets again` }];
      },
    }),
    dashboard: {
      nav: [{ href: '/dashboard/webhooks', label: 'Webhooks', order: 60, scope: 'webhooks:read' }],
      pages: [webhookPages],
    },
    retention: webhookRetention,
    jobs: (u) => [
      {
        ...REPLAY_SINCE,
        parse: parseReplayPayload,
        run: async (p) => void (await u.replayEventsSince.execute(p)),
      },
    ],
  });
}

function parseReplayPayload(v: unknown): ReplaySincePayload {
  const p = (v ?? {}) as Record<string, unknown>;
  if (typeof p.tenantId !== 'string' || typeof p.subscriptionId !== 'string' || typeof p.since !== 'string') {
    throw new Error('expected {tenantId, subscriptionId, since}');
  }
  return { tenantId: p.tenantId, subscriptionId: p.subscriptionId, since: p.since };
}
