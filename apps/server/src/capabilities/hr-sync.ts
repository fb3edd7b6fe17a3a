import { receiverCheck } from '@fundi/adapters/webhooks';
import { hrSyncStorage } from '@fundi/adapters/hr-sync';
import type { Ports } from '@fundi/application';
import {
  hrErasureStep,
  hrLogRetention,
  hrOutboundJob,
  hrOutboundReaction,
  hrSubscriptionPurpose,
  hrSyncUseCases,
  hrSystemActor,
  type HrSyncUseCases,
} from '@fundi/application/hr-sync';
import type { HrSyncAllRepos } from '@fundi/application/hr-sync';
import { hrSyncRoutes, registerHrOutboundEvents, hrSyncPages } from '@fundi/http/hr-sync';
import { capability } from './capability.js';

/**
 * HR synchronisation: inbound employee events through the learner and enrolment use cases, outbound achievements
 * through the webhook delivery machinery (a subscription of the purpose it declares, `hrSubscriptionPurpose`). The
 * URL rules are the webhooks'.
 */
export function hrSync(settings: { allowHttp: boolean; allowHosts: readonly string[]; publicUrl: string }) {
  const checkReceiver = receiverCheck(settings.allowHosts);
  return capability({
    name: 'hrSync',
    storage: hrSyncStorage,
    declares: {
      scopes: { 'hr:read': ['admin', 'manager', 'viewer', 'integration'], 'hr:write': ['admin', 'integration'] },
      ids: ['hre'],
      // The HR inbound log 90 days.
      retention: [{ kind: 'hrLog', days: 90, variable: 'FUNDI_RETAIN_HR_LOG_DAYS' }],
      // Inbound events act as its own actor, from its own origin in the audit trail.
      offers: { learnerErasure: hrErasureStep, subscriptionPurpose: hrSubscriptionPurpose, systemActor: hrSystemActor },
      openApiWebhooks: registerHrOutboundEvents,
    },
    useCases: (p: Ports<HrSyncAllRepos>): HrSyncUseCases =>
      hrSyncUseCases({
        ...p,
        // The same box as the webhooks capability: the delivery worker opens this subscription's secret with it.
        box: p.secretBox('webhook-secret'),
        policy: { allowHttp: settings.allowHttp, eventTypes: p.eventTypes },
        receiverCheck: checkReceiver,
        publicUrl: settings.publicUrl.replace(/\/+$/, ''),
      }),
    routes: hrSyncRoutes,
    pageDeps: (u) => ({ hrSync: u }),
    dashboard: {
      nav: [{ href: '/dashboard/hr-sync', label: 'HR sync', order: 100, role: 'admin' }],
      pages: [hrSyncPages],
    },
    // Outbound messages follow committed enrolment and assessment events (docs/api.md, "HR sync").
    reactions: () => [hrOutboundReaction],
    jobs: (u) => [hrOutboundJob(u.sendOutbound)],
    retention: hrLogRetention,
  });
}
