import { type EvidenceFileKey, type EvidenceSnapshot, foldFilename } from '@fundi/domain/evidence';
import type { SqlDb } from '../db/sql-db.js';
import { type Row, SELECT, rowToEvidence } from './evidence-rows.js';

/**
 * Evidence found by learner, module and file name, folded alike on both engines (an evidence import matches its rows
 * to records so).
 */
export async function findByFileNames(
  db: SqlDb,
  tenantId: string,
  keys: readonly EvidenceFileKey[],
): Promise<EvidenceSnapshot[]> {
  const wanted = new Set(keys.map((k) => `${k.learnerId}\u0000${k.moduleId}\u0000${foldFilename(k.filename)}`));
  const pairs = [...new Map(keys.map((k) => [`${k.learnerId}\u0000${k.moduleId}`, k])).values()];
  const out: EvidenceSnapshot[] = [];
  // The database narrows to the keys' learners and modules (the learner index); the file names are compared
  // here, folded alike on both engines. Chunks keep the statement under every engine's parameter limit.
  for (let i = 0; i < pairs.length; i += 200) {
    const chunk = pairs.slice(i, i + 200);
    const learners = [...new Set(chunk.map((k) => k.learnerId))];
    const modules = [...new Set(chunk.map((k) => k.moduleId))];
    const rows = await db.all<Row>(
      `${SELECT} WHERE e.tenant_id = ? AND e.deleted_at IS NULL AND e.learner_id IN (${learners.map(() => '?').join(', ')})
       AND e.module_id IN (${modules.map(() => '?').join(', ')})`,
      [tenantId, ...learners, ...modules],
    );
    for (const r of rows) {
      const e = rowToEvidence(r);
      if (wanted.has(`${e.learnerId}\u0000${e.moduleId}\u0000${foldFilename(e.current.filename)}`)) out.push(e);
    }
  }
  return [...new Map(out.map((e) => [e.id, e])).values()].sort((a, b) => (a.id < b.id ? -1 : 1));
}
