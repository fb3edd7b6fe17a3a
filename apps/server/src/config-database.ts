import { join, resolve } from 'node:path';
import type { DatabaseTarget } from '@fundi/adapters';
import { ConfigError, int } from './config-values.js';

/** DATABASE_URL: Postgres (with DATABASE_POOL_MAX), a SQLite file, or unset for SQLite in the data dir. */
export function database(env: NodeJS.ProcessEnv, dataDir: string): DatabaseTarget {
  const url = env.DATABASE_URL;
  if (!url) return { kind: 'sqlite', filename: join(dataDir, 'fundi.sqlite') };
  if (/^postgres(ql)?:\/\//.test(url)) {
    try {
      new URL(url);
    } catch {
      throw new ConfigError('DATABASE_URL', 'is not a valid postgres:// URL');
    }
    return { kind: 'postgres', url, poolMax: int(env, 'DATABASE_POOL_MAX', 10, 1, 200) };
  }
  if (url.startsWith('sqlite:')) return { kind: 'sqlite', filename: resolve(url.slice('sqlite:'.length)) };
  throw new ConfigError(
    'DATABASE_URL',
    'must start with postgres:// or postgresql:// (or sqlite:<file>); unset means SQLite in the data dir',
  );
}
