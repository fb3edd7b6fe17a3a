import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Server } from 'node:http';
import type { Container } from 'inversify';
import { closeContainer, type FileStoreChoice, type createLogger, useCasesOf } from '@fundi/adapters';
import type { WebhookSettings } from '@fundi/adapters/webhooks';
import type { ChannelDefaults } from '@fundi/adapters/notifications';
import type { Worker } from '@fundi/worker';
import {
  openTestStorage,
  startReceiver,
  type ReceiverMode,
  type StorageKind,
  type TestReceiver,
  type TestStorage,
} from '@fundi/adapters/testing';
import type { Clock } from '@fundi/domain';
import { STORAGE_ONLY, hooksOf, storageOf, tenants } from '../capabilities/index.js';
import { capabilitiesOf, containerFor, httpApp, openApiDocument } from '../compose.js';
import { workerFor } from '../compose-worker.js';
import { nudgeOnWrites } from '../nudge.js';
import type { WorkerConfig } from '../config.js';
import { OpenApiValidator } from './openapi-validator.js';
import { httpServer } from '@fundi/http';
import type { PortalLimits } from '@fundi/http/portal';

export interface TestServer {
  url: string;
  container: Container;
  /** The directory of the local file store, when the server has one. */
  filesDir: string | null;
  /** Checks answers and webhook payloads against the served OpenAPI document. */
  validator: OpenApiValidator;
  storage: TestStorage;
  /** The in-process worker, when started with `worker`. */
  worker: Worker | null;
  /** Creates a tenant and returns its admin key. */
  tenant(slug: string, plan?: string): Promise<{ id: string; key: string }>;
  /** Issues another key for a tenant. */
  key(slug: string, role: string, scopes?: string[], expiresAt?: string): Promise<{ id: string; key: string }>;
  /** fetch against the server with a bearer key; JSON body when given. */
  call(
    method: string,
    path: string,
    key?: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<CallResult>;
  /** A webhook receiver on 127.0.0.1 whose every payload is checked against this server's document. */
  receiver(mode?: ReceiverMode): Promise<TestReceiver>;
  close(): Promise<void>;
}

/**
 * A response body as tests read it. `call` checks every body against the served OpenAPI document before a test
 * sees it, so tests follow the documented paths (`body.data[0].id`) without restating each schema here.
 */
// biome-ignore lint/suspicious/noExplicitAny: the document's schemas type these bodies, checked at run time by `call`.
export type ResponseBody = any;

/** What `TestServer.call` answers. */
export interface CallResult {
  status: number;
  body: ResponseBody;
  headers: Headers;
}

type Logger = ReturnType<typeof createLogger>;

const MASTER_KEY = Buffer.alloc(32, 7);
/** The master key test servers use unless told otherwise (tests that sign as the server would). */
export const TEST_MASTER_KEY = MASTER_KEY;

/** The real HTTP stack on 127.0.0.1 over a fresh store of the given kind. */
export interface TestServerOptions {
  clock?: Clock;
  authCacheMs?: number;
  anonymousPerMinute?: number;
  /** Per-address limit of the inbound routes (default: the same as `anonymousPerMinute`). */
  inboundPerMinute?: number;
  /** Serve an existing SQL store (another server's: two processes on one database) instead of a fresh one; it is not closed with this server. */
  attach?: TestStorage;
  /** Capture logs: a logger to use instead of the silent default. */
  logger?: Logger;
  /** Defaults for tests: http allowed, 127.0.0.1 allow-listed, 2 s timeout. */
  webhooks?: Partial<WebhookSettings>;
  /** Where files go (default: a temporary directory for SQL stores, memory for the memory store). */
  fileStore?: FileStoreChoice;
  /** The master key (a fixed test key by default) and keys replaced by a rotation. */
  masterKey?: Buffer;
  previousMasterKeys?: Buffer[];
  /** Start the worker in this process with these settings (short leases and polls by default). */
  worker?: Partial<WorkerConfig>;
  /** `FUNDI_PUBLIC_URL` (default: none, so signed URLs use the request's origin). */
  publicUrl?: string;
  /** Default mail and WhatsApp channels (default: mail to a temporary outbox folder, no WhatsApp). */
  notifications?: { publicUrl?: string; channels?: Partial<ChannelDefaults> };
  /** FUNDI_BODY_IDLE_TIMEOUT_MS (default 60 s). */
  bodyIdleTimeoutMs?: number;
  /** Learner portal sign-in limits (default: the service's). */
  portalLimits?: Partial<PortalLimits>;
}

export const TEST_WEBHOOKS: WebhookSettings = { allowHttp: true, allowHosts: ['127.0.0.1'], timeoutMs: 2000 };
export const TEST_WORKER: WorkerConfig = { leaseMs: 5000, pollMs: 20, concurrency: 8, graceMs: 1000 };

export async function startTestServer(kind: StorageKind, opts: TestServerOptions = {}): Promise<TestServer> {
  // Every capability's storage, so a new capability's tables exist without touching this file.
  const storage = opts.attach ?? (await openTestStorage(kind, storageOf(STORAGE_ONLY())));
  // Files on a real disk beside a real database; in memory beside the in-memory store.
  const filesDir = kind === 'memory' || opts.fileStore ? null : mkdtempSync(join(tmpdir(), 'fundi-files-'));
  const fileStore: FileStoreChoice =
    opts.fileStore ?? (filesDir ? { kind: 'local', dir: filesDir } : { kind: 'memory' });
  const outboxDir = mkdtempSync(join(tmpdir(), 'fundi-outbox-'));
  const container = containerFor(
    {
      database: storage.target ?? { kind: 'sqlite', filename: ':memory:' },
      masterKey: opts.masterKey ?? MASTER_KEY,
      previousMasterKeys: opts.previousMasterKeys,
      logLevel: 'silent',
      webhooks: { ...TEST_WEBHOOKS, ...opts.webhooks },
      fileStore,
      publicUrl: opts.publicUrl,
      notifications: {
        publicUrl: opts.notifications?.publicUrl ?? '',
        channels: {
          smtpUrl: null,
          smtpFrom: 'Fundi <no-reply@fundi.local>',
          outboxFolder: outboxDir,
          whatsapp: null,
          ...opts.notifications?.channels,
        },
      },
    },
    { storage: storage.target ?? { kind: 'memory' }, clock: opts.clock, logger: opts.logger },
  );
  const app = httpApp(container, {
    authCacheMs: opts.authCacheMs ?? 0,
    anonymousLimits: { perMinute: opts.anonymousPerMinute ?? 1000, perDay: null },
    inboundLimits: { perMinute: opts.inboundPerMinute ?? opts.anonymousPerMinute ?? 1000, perDay: null },
    trustProxy: false,
    bodyIdleTimeoutMs: opts.bodyIdleTimeoutMs,
    portalLimits: opts.portalLimits,
  });
  const server: Server = httpServer(app).listen(0, '127.0.0.1');
  await new Promise((ok) => server.once('listening', ok));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const worker = opts.worker ? workerFor(container, { ...TEST_WORKER, ...opts.worker }) : null;
  await worker?.start();
  if (worker) nudgeOnWrites(server, worker);

  // Every answer a test receives through `call` is checked against the served document (docs/api.md, "OpenAPI").
  const validator = new OpenApiValidator(openApiDocument(container));
  const call: TestServer['call'] = async (method, path, key, body, headers = {}) => {
    const res = await fetch(url + path, {
      method,
      headers: {
        ...(key ? { authorization: `Bearer ${key}` } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      body:
        body === undefined
          ? undefined
          : typeof body === 'string' || body instanceof Uint8Array
            ? body
            : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      /* not JSON: keep the text */
    }
    const problems = validator.checkResponse(
      method,
      path,
      res.status,
      res.headers.get('content-type'),
      parsed,
      res.headers,
    );
    if (problems.length)
      throw new Error(
        `The answer does not match the OpenAPI document:\n  ${problems.join('\n  ')}\nbody: ${text.slice(0, 2000)}`,
      );
    return { status: res.status, body: parsed, headers: res.headers };
  };

  return {
    url,
    container,
    storage,
    worker,
    call,
    validator,
    filesDir,
    async receiver(mode) {
      const rx = await startReceiver(mode);
      rx.validateWith((payload) => validator.checkWebhook(String((payload as { type?: unknown }).type), payload));
      return rx;
    },
    async tenant(slug, plan = 'enterprise') {
      const t = await useCasesOf(container, tenants).createTenant.execute({ slug, name: `Tenant ${slug}`, plan });
      return { id: t.tenant.id, key: t.apiKey.key };
    },
    async key(slug, role, scopes, expiresAt) {
      const k = await useCasesOf(container, tenants).createApiKey.execute(slug, {
        name: `${role} key`,
        role,
        scopes,
        expiresAt,
      });
      return { id: k.id, key: k.key };
    },
    async close() {
      await worker?.stop();
      hooksOf(container, capabilitiesOf(container)).close();
      server.closeAllConnections();
      await new Promise((ok) => server.close(ok));
      await closeContainer(container);
      if (!opts.attach) await storage.close();
      if (filesDir) rmSync(filesDir, { recursive: true, force: true });
      rmSync(outboxDir, { recursive: true, force: true });
    },
  };
}
