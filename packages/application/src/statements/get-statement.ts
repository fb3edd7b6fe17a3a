import type { Actor } from '../common/actor.js';
import { findLearnerStatement } from './find-learner-statement.js';
import { statementBaseUrl } from './statement-base-url.js';
import type { StatementPorts } from './statement-ports.js';
import { statementView, type StatementView } from './statement-view.js';

/** `GET /learners/{id}/statements/{statementId}` (`getStatement`): a statement with its verification code. */
export class GetStatement {
  constructor(private readonly d: StatementPorts) {}

  async execute(actor: Actor, learnerId: string, id: string, origin?: string): Promise<StatementView> {
    return statementView(await findLearnerStatement(this.d, actor, learnerId, id), statementBaseUrl(this.d, origin));
  }
}
