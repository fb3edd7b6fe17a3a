import 'reflect-metadata';
import type { Clock } from '@fundi/domain';
import { Container } from 'inversify';
import type { Logger } from 'pino';
import { storageModule, systemModule, useCaseModule, type StorageChoice } from './modules.js';
import { T } from './tokens.js';
import { resolve } from './provide.js';

export interface ContainerSettings {
  storage: StorageChoice;
  masterKey: Buffer;
  logLevel: string;
  clock?: Clock;
  /** A ready logger instead of one built from `logLevel` (tests capture output this way). */
  logger?: Logger;
}

/** The one place adapter families are chosen; apps call this and take what they need by token. */
export function buildContainer(s: ContainerSettings): Container {
  const c = new Container();
  c.load(storageModule(s.storage), systemModule(s), useCaseModule());
  return c;
}

/** Closes what the container opened (the database pool). */
export async function closeContainer(c: Container): Promise<void> {
  if (c.isBound(T.SqlDb)) await resolve(c, T.SqlDb).close();
}
