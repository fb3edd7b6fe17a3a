import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';

/**
 * Preloaded (`node --import`) into an app process by the PgBouncer part of the scaling bench: every statement the
 * process sends is unnamed, so Postgres parses and plans it on each call, as a pooler in transaction mode without
 * protocol-level prepared statements (PgBouncer before 1.21) requires. It patches the node-postgres the adapters load.
 */
const adapters = join(dirname(fileURLToPath(import.meta.url)), '../../../packages/adapters/package.json');
const driver = createRequire(adapters)('pg') as typeof pg;
type Query = (this: pg.Client, config: unknown, ...rest: unknown[]) => unknown;
// pg types `query` as a set of overloads; one function that passes every call on stands in for all of them.
const query = driver.Client.prototype.query as unknown as Query;
(driver.Client.prototype as unknown as { query: Query }).query = function (config, ...rest) {
  if (config && typeof config === 'object' && 'name' in config) {
    const { name: _name, ...unnamed } = config as Record<string, unknown>;
    return query.call(this, unnamed, ...rest);
  }
  return query.call(this, config, ...rest);
};
