import type { SqlDb } from './sql-db.js';

/** At least this many rows changed since the last ANALYZE before a table is analysed again. */
const MIN_CHANGED = 1000;
/**
 * ... and at least as many as it counted then: a table that grows from empty is analysed at about 1,000, 2,000,
 * 4,000, ... rows (seven times on the way to 100,000, at about 150 ms each at that size), not after every batch.
 */
const SHARE_CHANGED = 1;
/**
 * From this many rows a table is analysed from a smaller sample (3,000 rows, statistics target 10, instead of
 * Postgres' 30,000): ANALYZE reads and sorts its whole sample for each column, which made the last ANALYZEs of a
 * 100,000-row import (at 32,000 and 64,000 rows) its costliest. The lookups an import makes (by unique ID number,
 * email, alternative ID or id) need the table's size and that those columns are unique, which such a sample shows;
 * autovacuum analyses the table again with the full sample once it has changed by a tenth after the last
 * (docs/performance.md, "Imports on Postgres").
 */
const LARGE = 10_000;

/**
 * Postgres: ANALYZE those of `tables` (of the current schema) that changed much since they were last analysed,
 * so the planner knows their size and their columns' values. Without statistics (a young table, or one that
 * grew faster than autovacuum looks, as during a 100,000-row import) it estimates almost every condition as
 * matching a row or two and can pick an index that reads the tenant's every learner to find one by ID number
 * (docs/architecture.md, "Planner statistics"). SQLite chooses its indexes without statistics: nothing to do there.
 */
export async function refreshStatistics(db: SqlDb, tables: readonly string[]): Promise<string[]> {
  if (db.dialect.name !== 'postgres' || tables.length === 0) return [];
  for (const t of tables) if (!/^[a-z_][a-z0-9_]*$/.test(t)) throw new Error(`not a table name: ${t}`);
  const stale = await db.all<{ name: string; rows: number | string }>(
    `SELECT s.relname AS name, c.reltuples AS rows FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
     WHERE s.schemaname = current_schema() AND s.relname IN (${tables.map(() => '?').join(', ')})
     AND s.n_mod_since_analyze >= greatest(?, c.reltuples * ?)`,
    [...tables, MIN_CHANGED, SHARE_CHANGED],
  );
  for (const { name, rows } of stale)
    if (Number(rows) < LARGE) await db.run(`ANALYZE ${name}`);
    else
      await db.transaction(async (tx) => {
        await tx.run('SET LOCAL default_statistics_target = 10');
        await tx.run(`ANALYZE ${name}`);
      });
  return stale.map((s) => s.name);
}
