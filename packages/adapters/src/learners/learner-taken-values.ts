import { PLAN_PER_CALL, type Binding, type SqlDb } from '../db/sql-db.js';

/**
 * Which of an import's ID numbers, emails and alternative IDs live learners of the tenant already hold, each value
 * to its learner's id.
 */
export async function findTaken(
  db: SqlDb,
  tenantId: string,
  idNumbers: readonly string[],
  emails: readonly string[],
  alternates: readonly string[] = [],
) {
  const out = {
    idNumbers: new Map<string, string>(),
    emails: new Map<string, string>(),
    alternates: new Map<string, string>(),
  };
  // One statement per 1,000 values of each column (an import's batch): the ID numbers, the emails and the
  // alternative IDs looked up together, each by its own unique index (docs/performance.md, "Imports on Postgres").
  // Postgres reads each column's values from one JSON parameter (`Dialect.amongTexts`); SQLite binds them one by one,
  // at most 3,000 and the tenant's id three times, far under its limit.
  const columns = [
    { column: 'id_number', values: [...new Set(idNumbers)], into: out.idNumbers, only: '' },
    { column: 'email_lower', values: [...new Set(emails.map((e) => e.toLowerCase()))], into: out.emails, only: '' },
    {
      column: "alternate_id_type || ':' || alternate_id",
      values: [...new Set(alternates)],
      into: out.alternates,
      // Only learners with an alternative ID: those the partial unique index holds (migration 025).
      only: ' AND alternate_id IS NOT NULL',
    },
  ];
  const longest = Math.max(...columns.map((c) => c.values.length));
  for (let i = 0; i < longest; i += 1000) {
    const parts: string[] = [];
    const bindings: Binding[] = [];
    const order: Map<string, string>[] = [];
    for (const c of columns) {
      const chunk = c.values.slice(i, i + 1000);
      if (!chunk.length) continue;
      const among = db.dialect.amongTexts(c.column, chunk);
      parts.push(
        `SELECT id, ${order.length} AS k, ${c.column} AS v FROM learners WHERE tenant_id = ? AND erased_at IS NULL${c.only} AND ${among.sql}`,
      );
      bindings.push(tenantId, ...among.bindings);
      order.push(c.into);
    }
    const rows = await db.all<{ id: string; k: number | string; v: string }>(
      `${PLAN_PER_CALL}${parts.join(' UNION ALL ')}`,
      bindings,
    );
    for (const r of rows) order[Number(r.k)]!.set(r.v, r.id);
  }
  return out;
}
