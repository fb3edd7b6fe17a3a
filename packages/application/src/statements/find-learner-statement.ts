import { DomainError } from '@fundi/domain';
import type { StatementSnapshot } from '@fundi/domain/statements';
import type { Actor } from '../common/actor.js';
import type { StatementPorts } from './statement-ports.js';

/** One of the learner's statements; 404 when it does not exist or belongs to another learner. */
export async function findLearnerStatement(
  d: Pick<StatementPorts, 'repos'>,
  actor: Actor,
  learnerId: string,
  id: string,
): Promise<StatementSnapshot> {
  const s = await d.repos.statements.findById(actor.tenantId, id);
  if (!s || s.learnerId !== learnerId) throw DomainError.notFound('statement', id);
  return s;
}
