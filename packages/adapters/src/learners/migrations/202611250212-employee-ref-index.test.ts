import { expect, it } from 'vitest';
import { describeEachStorage } from '../../testing/each-storage.js';
import { learnerEmployeeRefIndexMigration } from './202611250212-employee-ref-index.js';

/** Learners by employee reference: one index, the one with the id (migration `employee-ref-index`). */
describeEachStorage(
  `migration ${learnerEmployeeRefIndexMigration.name}`,
  (get) => {
    it('leaves exactly one employee-reference index on learners', async () => {
      const db = get().db!;
      const names = await db.all<{ name: string }>(db.dialect.indexesQuery, ['learners']);
      const refs = names.map((n) => n.name).filter((n) => n.includes('employee_ref'));
      expect(refs).toEqual(['learners_tenant_employee_ref_id']);
    });
  },
  ['sqlite', 'postgres'],
);
