import { RunRetention, type RetentionTask } from '@fundi/application';
import { FixedClock, DOCUMENTED_RETENTION } from '@fundi/testing';
import { expect, it } from 'vitest';
import { queryBuilder } from '../db/query-builder.js';
import type { Binding, SqlDb } from '../db/sql-db.js';
import { hrSyncStorage } from '../hr-sync/sql-hr-sync.js';
import { notificationStorage } from '../notifications/sql-notifications.js';
import { platformStorage } from '../platform/platform-storage.js';
import { staffStorage } from '../staff/staff-storage.js';
import { describeEachStorage } from '../testing/each-storage.js';
import { webhookStorage } from '../webhooks/webhook-storage.js';
import { jobRetention } from '@fundi/application';
import { sessionRetention } from '@fundi/application/staff';
import { webhookRetention } from '@fundi/application/webhooks';
import { hrLogRetention } from '@fundi/application/hr-sync';
import { notificationRetention } from '@fundi/application/notifications';

/**
 * Every DELETE of the retention tasks is answered from an index on Postgres: explained with sequential scans
 * disabled (so a plan that still has one, or sorts, has no index in the pick's order), before it runs. The statements and bindings are the
 * ones the tasks really send.
 */
describeEachStorage(
  'Retention statements read by index',
  (get) => {
    it('no DELETE of the retention tasks needs a sequential scan', async () => {
      const db = get().db!;
      const plans: { sql: string; plan: string }[] = [];
      const explaining: SqlDb = {
        dialect: db.dialect,
        all: (sql, b) => db.all(sql, b),
        allArrays: (sql, b) => db.allArrays(sql, b),
        first: (sql, b) => db.first(sql, b),
        transaction: (work) => db.transaction(work),
        scrub: (t) => db.scrub(t),
        close: () => db.close(),
        async run(sql: string, b?: readonly Binding[]) {
          if (/^\s*DELETE/i.test(sql)) {
            const rows = await db.transaction(async (tx) => {
              await tx.run('SET LOCAL enable_seqscan = off');
              return tx.all<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, b);
            });
            plans.push({ sql, plan: rows.map((r) => r['QUERY PLAN']).join('\n') });
          }
          return db.run(sql, b);
        },
      };
      const qb = queryBuilder(db.dialect);
      const repos = {
        ...platformStorage.sql(explaining, qb),
        ...webhookStorage.sql(explaining, qb),
        ...notificationStorage.sql(explaining, qb),
        ...hrSyncStorage.sql(explaining, qb),
        ...staffStorage.sql(explaining, qb),
      };
      const tasks: RetentionTask[] = [
        ...jobRetention({ repos }),
        ...webhookRetention({ repos }),
        ...notificationRetention({ repos }),
        ...hrLogRetention({ repos }),
        ...sessionRetention({ repos }),
      ];
      await new RunRetention({ tasks, policy: DOCUMENTED_RETENTION, clock: new FixedClock(), batch: 1000 }).execute();
      expect(plans).toHaveLength(tasks.length);
      // Neither a scan of a table nor a sort of what a scan found: each pick walks an index in its order.
      for (const p of plans) expect(p.plan, `${p.sql}\n${p.plan}`).not.toMatch(/Seq Scan|Sort/);
    });
  },
  ['postgres'],
  [platformStorage, webhookStorage, notificationStorage, hrSyncStorage, staffStorage],
);
