import { aLearner } from '@fundi/domain/testing';
import { expect, it } from 'vitest';
import { queryBuilder } from '../../db/query-builder.js';
import type { Binding, SqlDb } from '../../db/sql-db.js';
import { aStoredTenant } from '../learner-fixtures.js';
import { describeEachStorage } from '../../testing/each-storage.js';
import { learnerStorage } from '../learner-storage.js';
import { learnerSearchIndexMigration } from './202611280300-search-index.js';

/**
 * The learner list's statements, as the repository sends them, read through the indexes of migration
 * `search-index` (docs/performance.md, "Learner search"): the list sorted by name from `learners_live_tenant_name`
 * on both databases, and on Postgres a search by words from the trigram index `learners_search_trgm`. Explained
 * with sequential scans disabled on Postgres, over 2,000 learners just written and analyzed (no vacuum: an import's learners are searched before autovacuum
 * comes), so the plan shows
 * which index the planner can use, not what a small table makes cheapest.
 */
describeEachStorage(
  `migration ${learnerSearchIndexMigration.name}`,
  (get, kind) => {
    it('lists by name from the name index and searches by words through the trigram index', async () => {
      const db = get().db!;
      const tenant = await aStoredTenant(get().repos);
      const learners = Array.from({ length: 2000 }, (_, i) =>
        aLearner({
          tenantId: tenant.id,
          firstName: `First${1000 + i}`,
          lastName: `Last${1000 + i}`,
          email: `learner${1000 + i}@example.co.za`,
          idNumber: null,
        }),
      );
      await get().repos.learners.insertMany(learners);
      await db.run(kind === 'postgres' ? 'ANALYZE learners' : 'ANALYZE');

      const plans: { sql: string; plan: string }[] = [];
      const explain = async (sql: string, b?: readonly Binding[]) => {
        if (kind === 'sqlite') {
          const rows = await db.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`, b);
          return rows.map((r) => r.detail).join('\n');
        }
        const rows = await db.transaction(async (tx) => {
          await tx.run('SET LOCAL enable_seqscan = off');
          return tx.all<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, b);
        });
        return rows.map((r) => r['QUERY PLAN']).join('\n');
      };
      const explaining: SqlDb = {
        dialect: db.dialect,
        scrub: (t) => db.scrub(t),
        close: () => db.close(),
        async all<T>(sql: string, b?: readonly Binding[]) {
          if (/FROM [`"]?learners[`"]?/i.test(sql)) plans.push({ sql, plan: await explain(sql, b) });
          return db.all<T>(sql, b);
        },
        async allArrays(sql: string, b?: readonly Binding[]) {
          if (/FROM [`"]?learners[`"]?/i.test(sql)) plans.push({ sql, plan: await explain(sql, b) });
          return db.allArrays(sql, b);
        },
        first: (sql, b) => db.first(sql, b),
        run: (sql, b) => db.run(sql, b),
        transaction: (work) => db.transaction(work),
      };
      const repo = learnerStorage.sql(explaining, queryBuilder(db.dialect)).learners;

      const byName = await repo.list(
        tenant.id,
        {},
        { kind: 'offset', offset: 0, limit: 25 },
        { by: 'name', descending: false },
      );
      expect(byName.total).toBe(2000);
      expect(byName.items.map((l) => l.lastName)).toEqual(learners.slice(0, 25).map((l) => l.lastName));
      expect(plans.map((p) => p.plan).join('\n')).toContain('learners_live_tenant_name');

      plans.length = 0;
      const found = await repo.list(
        tenant.id,
        { search: 'last1234 FIRST1234' },
        { kind: 'offset', offset: 0, limit: 25 },
        { by: 'name', descending: false },
      );
      expect(found.items.map((l) => l.lastName)).toEqual(['Last1234']);
      expect(found.total).toBe(1);
      if (kind === 'postgres') {
        const indexes = await db.all<{ name: string }>(db.dialect.indexesQuery, ['learners']);
        expect(indexes.map((i) => i.name)).toContain('learners_search_trgm');
        const [search] = plans;
        expect(search?.plan, `${search?.sql}\n${search?.plan}`).toContain('learners_search_trgm');
      }
    });
  },
  ['sqlite', 'postgres'],
);
