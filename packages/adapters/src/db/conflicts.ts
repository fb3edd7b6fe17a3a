import type { DomainError } from '@fundi/domain';
import type { Dialect } from './sql-db.js';

/** Maps a unique violation to the domain conflict of the first rule whose column name it mentions. */
export async function mapUnique<T>(
  dialect: Dialect,
  rules: { column: string; error: () => DomainError }[],
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (e) {
    const described = dialect.uniqueViolation(e);
    if (described !== null) {
      const rule = rules.find((r) => described.includes(r.column));
      if (rule) throw rule.error();
    }
    throw e;
  }
}
