import {
  ClaimDeliveries, CreateWebhookSubscription, DeleteWebhookSubscription, DispatchOutbox, EnableWebhookSubscription,
  GetWebhookSubscription, ListDeliveryAttempts, ListWebhookSubscriptions, RecordDeliveryOutcomes, ReplayDelivery,
  ReplayEventsSince, RequestReplay, RotateWebhookSecret, SendTestEvent, UpdateWebhookSubscription,
  type WebhookDeps, type WebhookSubscriptionUseCases, type WebhookTransport,
} from '@fundi/application';
import type { SecretBox, WorkerLease } from '@fundi/domain';
import { ContainerModule } from 'inversify';
import { SqlWorkerLease } from '../repos/sql-jobs.js';
import { AesGcmSecretBox } from '../system/secret-box.js';
import { UndiciWebhookTransport } from '../webhooks/undici-transport.js';
import type { StorageChoice } from './modules.js';
import { provide, provideValue, token } from './provide.js';
import { T } from './tokens.js';

export interface WebhookSettings {
  /** FUNDI_WEBHOOK_ALLOW_HTTP. */
  allowHttp: boolean;
  /** FUNDI_WEBHOOK_ALLOW_HOSTS: hosts or addresses exempt from the SSRF check. */
  allowHosts: readonly string[];
  /** Per-attempt limit, D6's 10 s by default. */
  timeoutMs: number;
}

export const DEFAULT_WEBHOOK_SETTINGS: WebhookSettings = { allowHttp: false, allowHosts: [], timeoutMs: 10_000 };

/** Everything the webhook routes and the worker take from the container. */
export interface WebhookUseCases extends WebhookSubscriptionUseCases {
  replayEventsSince: ReplayEventsSince;
  dispatchOutbox: DispatchOutbox;
  claimDeliveries: ClaimDeliveries;
  recordOutcomes: RecordDeliveryOutcomes;
}

/** Webhook tokens, kept beside their module so the shared token list stays small. */
export const W = {
  Box: token<SecretBox>('WebhookSecretBox'),
  Deps: token<WebhookDeps>('WebhookDeps'),
  Transport: token<WebhookTransport & { close(): Promise<void> }>('WebhookTransport'),
  /** The SQLite single-worker lease; null where row leases alone share the work (Postgres, memory). */
  WorkerLease: token<WorkerLease | null>('WorkerLease'),
  UseCases: token<WebhookUseCases>('WebhookUseCases'),
} as const;

function useCases(d: WebhookDeps): WebhookUseCases {
  return {
    create: new CreateWebhookSubscription(d), update: new UpdateWebhookSubscription(d), remove: new DeleteWebhookSubscription(d),
    enable: new EnableWebhookSubscription(d), get: new GetWebhookSubscription(d), list: new ListWebhookSubscriptions(d),
    listAttempts: new ListDeliveryAttempts(d), rotateSecret: new RotateWebhookSecret(d), sendTest: new SendTestEvent(d),
    replayDelivery: new ReplayDelivery(d), requestReplay: new RequestReplay(d), replayEventsSince: new ReplayEventsSince(d),
    dispatchOutbox: new DispatchOutbox(d), claimDeliveries: new ClaimDeliveries(d), recordOutcomes: new RecordDeliveryOutcomes(d),
  };
}

export function webhookModule(s: { storage: StorageChoice; masterKey: Buffer; webhooks: WebhookSettings }): ContainerModule {
  return new ContainerModule(({ bind }) => {
    provideValue(bind, W.Box, new AesGcmSecretBox(s.masterKey, 'webhook-secret'));
    provide(bind, W.Deps, (core, box): WebhookDeps => ({ ...core, box, policy: { allowHttp: s.webhooks.allowHttp } }), [T.CoreDeps, W.Box]);
    provide(bind, W.UseCases, useCases, [W.Deps]);
    provide(bind, W.Transport, () => new UndiciWebhookTransport(s.webhooks), []);
    if (s.storage.kind === 'sqlite') provide(bind, W.WorkerLease, (db) => new SqlWorkerLease(db), [T.SqlDb]);
    else provideValue(bind, W.WorkerLease, null);
  });
}
