import type { WebhookSettings } from '@fundi/adapters/webhooks';
import type { RetentionPolicy } from '@fundi/application';
import { ConfigError, bool, hostList, int } from './config-values.js';

/** FUNDI_WORKER_POLL_MS's default: how long an idle loop sleeps when no work signal or nudge wakes it. */
export const DEFAULT_WORKER_POLL_MS = 200;

export interface WorkerConfig {
  /** FUNDI_WORKER_LEASE_MS: how long a claim holds; a killed worker's work is taken again after it. */
  leaseMs: number;
  /** FUNDI_WORKER_POLL_MS: idle polling interval. */
  pollMs: number;
  /** FUNDI_WORKER_CONCURRENCY: webhook requests in flight. */
  concurrency: number;
  /**
   * FUNDI_WORKER_GRACE_MS: on SIGTERM, time for in-flight work before its leases are given back; at most what is
   * left of FUNDI_SHUTDOWN_GRACE_MS.
   */
  graceMs: number;
  /** FUNDI_RETAIN_*: how long finished records are kept (docs/architecture.md, "Retention"); defaults when absent. */
  retention?: RetentionSettings;
}

export interface RetentionSettings {
  /** Days each kind is kept after it ended. */
  policy: RetentionPolicy;
  /** FUNDI_RETENTION_BATCH: rows per statement of the prune (each its own transaction). */
  batch: number;
}

/** The outbound webhooks' settings and the worker's, read together: a claim must outlast a delivery's timeout. */
export function webhookAndWorker(
  env: NodeJS.ProcessEnv,
  retention: RetentionSettings,
): { webhooks: WebhookSettings; worker: WorkerConfig } {
  const timeoutMs = int(env, 'FUNDI_WEBHOOK_TIMEOUT_MS', 10_000, 100, 60_000);
  const leaseMs = int(env, 'FUNDI_WORKER_LEASE_MS', 30_000, 200, 3_600_000);
  if (leaseMs <= timeoutMs)
    throw new ConfigError(
      'FUNDI_WORKER_LEASE_MS',
      `must exceed FUNDI_WEBHOOK_TIMEOUT_MS (${timeoutMs}), or a slow delivery could be claimed twice`,
    );
  return {
    webhooks: {
      allowHttp: bool(env, 'FUNDI_WEBHOOK_ALLOW_HTTP', false),
      allowHosts: hostList(env, 'FUNDI_WEBHOOK_ALLOW_HOSTS'),
      timeoutMs,
    },
    worker: {
      leaseMs,
      pollMs: int(env, 'FUNDI_WORKER_POLL_MS', DEFAULT_WORKER_POLL_MS, 10, 60_000),
      concurrency: int(env, 'FUNDI_WORKER_CONCURRENCY', 64, 1, 1000),
      graceMs: int(env, 'FUNDI_WORKER_GRACE_MS', 10_000, 0, 600_000),
      retention,
    },
  };
}
