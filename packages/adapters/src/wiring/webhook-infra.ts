import type { WebhookTransport } from '@fundi/application/webhooks';
import type { WorkerLease } from '@fundi/domain';
import { ContainerModule } from 'inversify';
import type { DatabaseTarget } from '../db/open-database.js';
import { PostgresWorkSignal } from '../db/postgres-work-signal.js';
import { SqlWorkerLease } from '../jobs/sql-job-queue.js';
import { UndiciWebhookTransport } from '../webhooks/undici-transport.js';
import { provide, provideValue, token } from './provide.js';
import { T } from './tokens.js';

export interface WebhookSettings {
  /** FUNDI_WEBHOOK_ALLOW_HTTP. */
  allowHttp: boolean;
  /** FUNDI_WEBHOOK_ALLOW_HOSTS: hosts or addresses exempt from the SSRF check. */
  allowHosts: readonly string[];
  /** Per-attempt limit, 10 s by default (docs/webhooks.md). */
  timeoutMs: number;
}

export const DEFAULT_WEBHOOK_SETTINGS: WebhookSettings = { allowHttp: false, allowHosts: [], timeoutMs: 10_000 };

/**
 * The worker's infrastructure: the outbound HTTP transport, on SQLite the single-worker lease, on Postgres the
 * work signal (a connection of its own per listening worker, opened only when the worker starts).
 */
export const W = {
  Transport: token<WebhookTransport & { close(): Promise<void> }>('WebhookTransport'),
  /** The SQLite single-worker lease; null where row leases alone share the work (Postgres, memory). */
  WorkerLease: token<WorkerLease | null>('WorkerLease'),
  /** Wakes the worker when another process writes work (Postgres); null where only polling finds it. */
  WorkSignal: token<PostgresWorkSignal | null>('WorkSignal'),
} as const;

export function webhookInfraModule(s: {
  storage: DatabaseTarget | { kind: 'memory' };
  webhooks: WebhookSettings;
}): ContainerModule {
  return new ContainerModule(({ bind }) => {
    provide(bind, W.Transport, () => new UndiciWebhookTransport(s.webhooks), []);
    if (s.storage.kind === 'sqlite') provide(bind, W.WorkerLease, (db) => new SqlWorkerLease(db), [T.SqlDb]);
    else provideValue(bind, W.WorkerLease, null);
    const pg = s.storage.kind === 'postgres' ? s.storage : null;
    if (pg)
      provide(
        bind,
        W.WorkSignal,
        (logger) => new PostgresWorkSignal({ url: pg.url, searchPath: pg.searchPath }, logger),
        [T.Logger],
      );
    else provideValue(bind, W.WorkSignal, null);
  });
}
