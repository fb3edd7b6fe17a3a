import 'reflect-metadata';
import type { Clock } from '@fundi/domain';
import { Container } from 'inversify';
import type { Logger } from 'pino';
import { storageModule, systemModule, useCaseModule, type StorageChoice } from './modules.js';
import { T } from './tokens.js';
import { DEFAULT_WEBHOOK_SETTINGS, W, webhookModule, type WebhookSettings } from './webhook-wiring.js';
import { resolve } from './provide.js';

export interface ContainerSettings {
  storage: StorageChoice;
  masterKey: Buffer;
  logLevel: string;
  clock?: Clock;
  /** A ready logger instead of one built from `logLevel` (tests capture output this way). */
  logger?: Logger;
  webhooks?: WebhookSettings;
}

/** The one place adapter families are chosen; apps call this and take what they need by token. */
export function buildContainer(s: ContainerSettings): Container {
  const c = new Container();
  c.load(storageModule(s.storage), systemModule(s), useCaseModule());
  c.load(webhookModule({ storage: s.storage, masterKey: s.masterKey, webhooks: s.webhooks ?? DEFAULT_WEBHOOK_SETTINGS }));
  return c;
}

/** Closes what the container opened (the database pool). */
export async function closeContainer(c: Container): Promise<void> {
  if (c.isBound(W.Transport)) await resolve(c, W.Transport).close();
  if (c.isBound(T.SqlDb)) await resolve(c, T.SqlDb).close();
}
