import { isDomainError } from '@fundi/domain';
import { inHrTerms, type HrEventAnswer } from '@fundi/domain/hr-sync';
import { authenticateHrCall } from './authenticate-hr-call.js';
import type { HrSyncDeps } from './hr-sync-ports.js';
import type { InboundCall, InboundUseCases } from './hr-inbound-call.js';
import { HrEmployeeEvents } from './hr-employee-events.js';
import { logHrEvent } from './hr-event-log.js';

export type { HrEventBody, InboundCall, InboundUseCases } from './hr-inbound-call.js';

/**
 * `POST /webhooks/hr-sync` (docs/api.md, "HR sync"): authenticates the webhook key, answers a repeated event
 * (same `id`, or without one the same body) as the first time, runs the event through the learner and enrolment
 * use cases and logs it. Every check on the input comes before the first write, so bad input writes nothing. A new
 * event's `timestamp` must lie within five minutes of now; a repeat of a processed one is answered whatever its age.
 */
export class ReceiveHrEvent {
  private readonly events: HrEmployeeEvents;

  constructor(private readonly deps: HrSyncDeps & InboundUseCases) {
    this.events = new HrEmployeeEvents(deps);
  }

  async execute(call: InboundCall): Promise<HrEventAnswer> {
    const config = await authenticateHrCall(this.deps, call);
    const body = call.body;
    const eventKey = body.id ? `id:${body.id}` : `sha256:${this.deps.secrets.hash(JSON.stringify(body))}`;
    const first = await this.deps.repos.hrEvents.findProcessed(config.tenantId, eventKey);
    // A processed entry always holds its answer (logged below).
    if (first?.response) {
      await logHrEvent(this.deps, config, body, eventKey, {
        result: 'duplicate',
        response: first.response,
        learnerId: first.learnerId,
      });
      return first.response;
    }
    let answer: HrEventAnswer;
    try {
      answer = await this.events.handle(config, body, call.ip ?? null);
    } catch (e) {
      const err = isDomainError(e) && e.kind === 'invalid' ? inHrTerms(e, config.fieldMapping) : e;
      if (isDomainError(err)) {
        const error = { code: err.code, message: err.message, fields: err.details.map((d) => d.field) };
        await logHrEvent(this.deps, config, body, eventKey, { result: 'failed', error });
      }
      throw err;
    }
    try {
      await logHrEvent(this.deps, config, body, eventKey, {
        result: 'processed',
        response: { ...answer },
        learnerId: answer.learnerId,
        data: body.data,
      });
    } catch (e) {
      // The same event processed at the same moment by another request: answer as that one did.
      if (!isDomainError(e) || e.code !== 'hr_event_duplicate') throw e;
      const other = await this.deps.repos.hrEvents.findProcessed(config.tenantId, eventKey);
      if (other?.response) return other.response;
    }
    return answer;
  }
}
