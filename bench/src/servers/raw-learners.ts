import { openDatabase, type DatabaseTarget } from '@fundi/adapters';
import { newId } from '@fundi/domain';
import { Learner } from '@fundi/domain/learners';
import { appStorage, migrateAll } from '@fundi/server';
import type Database from 'better-sqlite3';
import { learnerInput } from '../fixtures.js';

// What the raw references share, all of it set-up: their request handlers stay their own, so this adds nothing to
// what a request costs them.

/**
 * Fundi's migrations on `target`, then a tenant and 1,000 learners (`learnerInput(first + i)`) written through
 * its repositories: the same table and rows Fundi serves. Returns the tenant and the 501st learner, the GET target.
 */
export async function seedRawLearners(
  target: DatabaseTarget,
  first: number,
): Promise<{ tenantId: string; learnerId: string }> {
  await migrateAll(target);
  const setup = openDatabase(target);
  const repos = appStorage(setup).repos;
  const tenantId = newId('ten');
  await repos.tenants.insert({
    id: tenantId,
    slug: `raw-${Date.now()}`,
    name: 'Raw',
    plan: 'enterprise',
    limitOverrides: {},
    createdAt: new Date().toISOString(),
  });
  let learnerId = '';
  for (let i = 0; i < 1000; i++) {
    const l = Learner.register(learnerInput(first + i), { id: newId('lrn'), tenantId, now: new Date() }).toSnapshot();
    await repos.learners.insert(l);
    if (i === 500) learnerId = l.id;
  }
  await setup.close();
  return { tenantId, learnerId };
}

/**
 * better-sqlite3 statements for one learner and for the first 100 of a tenant in id order, in raw (array) mode,
 * and `rowOf`, compiled once, that builds a row's object as one literal: the fastest way better-sqlite3 offers
 * (its own row objects of ~50 columns take about twice as long to build and to serialise).
 */
export function rawLearnerReads(db: Database.Database): {
  one: Database.Statement;
  hundred: Database.Statement;
  rowOf: (r: unknown[]) => Record<string, unknown>;
} {
  const one = db.prepare('SELECT * FROM learners WHERE tenant_id = ? AND erased_at IS NULL AND id = ?').raw(true);
  const hundred = db
    .prepare('SELECT * FROM learners WHERE tenant_id = ? AND erased_at IS NULL ORDER BY id LIMIT 100')
    .raw(true);
  const literal = one
    .columns()
    .map((c, i) => `${JSON.stringify(c.name)}: r[${i}]`)
    .join(', ');
  const rowOf = new Function('r', `return { ${literal} };`) as (r: unknown[]) => Record<string, unknown>;
  return { one, hundred, rowOf };
}
