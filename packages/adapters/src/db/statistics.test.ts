import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestStorage, postgresAvailable, type TestStorage } from '../testing/test-databases.js';
import { refreshStatistics } from './statistics.js';

const pgUp = await postgresAvailable();

/** Inserts `n` learners of one tenant straight into the table (the statistics are what is under test). */
async function addLearners(s: TestStorage, tenantId: string, from: number, n: number): Promise<void> {
  const db = s.db!;
  for (let i = from; i < from + n; i += 500) {
    const ids = Array.from({ length: Math.min(500, from + n - i) }, (_, k) => i + k);
    await db.run(
      `INSERT INTO learners (id, tenant_id, id_number, email_lower, created_at, updated_at) VALUES ${ids.map(() => '(?, ?, ?, ?, ?, ?)').join(', ')}`,
      ids.flatMap((k) => [`lrn_s${k}`, tenantId, String(8_000_000_000_000 + k), `s${k}@x.co.za`, 'now', 'now']),
    );
  }
}

async function tenant(s: TestStorage): Promise<string> {
  const id = `ten_stats_${Math.floor(Math.random() * 1e9)}`;
  await s.db!.run('INSERT INTO tenants (id, slug, name, plan, created_at) VALUES (?, ?, ?, ?, ?)', [
    id,
    id,
    'Stats',
    'pilot',
    'now',
  ]);
  return id;
}

(pgUp || process.env.CI === 'true' ? describe : describe.skip)('refreshStatistics [postgres]', () => {
  let s: TestStorage;
  beforeAll(async () => {
    s = await openTestStorage('postgres');
  });
  afterAll(async () => {
    await s?.close();
  });

  /** Waits until Postgres's activity counters show the inserts (they are flushed about once a second). */
  const counted = async (atLeast: number) => {
    for (let i = 0; i < 60; i++) {
      const r = await s.db!.first<{ n: number }>(
        "SELECT n_mod_since_analyze AS n FROM pg_stat_user_tables WHERE schemaname = current_schema() AND relname = 'learners'",
      );
      if (Number(r?.n ?? 0) >= atLeast) return;
      await new Promise((ok) => setTimeout(ok, 100));
    }
    throw new Error('the inserts never reached the activity counters');
  };

  it('analyses a table once it changed by at least 1,000 rows and as many as it had, and leaves it otherwise', async () => {
    const t = await tenant(s);
    await addLearners(s, t, 0, 600);
    await counted(600);
    expect(await refreshStatistics(s.db!, ['learners', 'enrolments'])).toEqual([]);
    await addLearners(s, t, 600, 600);
    await counted(1200);
    expect(await refreshStatistics(s.db!, ['learners', 'enrolments'])).toEqual(['learners']);
    // Now 1,200 rows counted: another 1,000 changes are not yet as many as it had.
    await addLearners(s, t, 1200, 1000);
    await counted(1000);
    expect(await refreshStatistics(s.db!, ['learners'])).toEqual([]);
    await addLearners(s, t, 2200, 300);
    await counted(1300);
    expect(await refreshStatistics(s.db!, ['learners'])).toEqual(['learners']);
  });

  it('gives the planner what it needs to find a learner by ID number through its own index', async () => {
    const t = await tenant(s);
    await addLearners(s, t, 10_000, 3000);
    await counted(3000);
    await refreshStatistics(s.db!, ['learners']);
    const plan = await s.db!.all<{ 'QUERY PLAN': string }>(
      "EXPLAIN SELECT id FROM learners WHERE tenant_id = ? AND erased_at IS NULL AND id_number IN ('8000000010001', '8000000010002')",
      [t],
    );
    const text = plan.map((r) => Object.values(r)[0]).join('\n');
    expect(text).toContain('learners_tenant_id_number_unique');
  });

  it('analyses a table of 10,000 rows or more from a sample of 3,000 rows, still finding learners by their index', async () => {
    const t = await tenant(s);
    await addLearners(s, t, 20_000, 12_000);
    await counted(12_000);
    await refreshStatistics(s.db!, ['learners']);
    // The table now counts at least 12,000 rows: as many changes again make it stale, and large.
    const counts = await s.db!.first<{ n: number | string }>(
      "SELECT reltuples AS n FROM pg_class WHERE oid = 'learners'::regclass",
    );
    const more = Math.ceil(Number(counts?.n ?? 0)) + 1000;
    expect(more).toBeGreaterThan(10_000);
    await addLearners(s, t, 40_000, more);
    await counted(more);
    expect(await refreshStatistics(s.db!, ['learners'])).toEqual(['learners']);
    // A statistics target of 10 for this ANALYZE alone: the unique emails' histogram has at most 11 bounds (101 with
    // the default target), and the session's setting is back to the default after it.
    const stats = await s.db!.first<{ bounds: string | null }>(
      "SELECT histogram_bounds::text AS bounds FROM pg_stats WHERE schemaname = current_schema() AND tablename = 'learners' AND attname = 'email_lower'",
    );
    expect(stats?.bounds?.split(',').length).toBeLessThanOrEqual(11);
    const setting = await s.db!.first<{ v: string }>("SELECT current_setting('default_statistics_target') AS v");
    expect(setting?.v).toBe('100');
    const plan = await s.db!.all<{ 'QUERY PLAN': string }>(
      'EXPLAIN SELECT id FROM learners WHERE tenant_id = ? AND erased_at IS NULL AND id_number IN (SELECT jsonb_array_elements_text(\'["8000000020001", "8000000020002"]\'::jsonb))',
      [t],
    );
    expect(plan.map((r) => Object.values(r)[0]).join('\n')).toContain('learners_tenant_id_number_unique');
  });

  it('refuses what is not a table name', async () => {
    await expect(refreshStatistics(s.db!, ['learners; DROP TABLE x'])).rejects.toThrow(/not a table name/);
  });
});

describe('refreshStatistics [sqlite]', () => {
  it('has nothing to do', async () => {
    const s = await openTestStorage('sqlite');
    try {
      expect(await refreshStatistics(s.db!, ['learners'])).toEqual([]);
    } finally {
      await s.close();
    }
  });
});
