import {
  DomainError,
  HR_INBOUND_EVENTS,
  IsoDate,
  REQUIRED_TARGETS,
  SaIdNumber,
  applyMapping,
  checkHrEventTimestamp,
  hrFieldFor,
  inHrTerms,
  isDomainError,
  newId,
  type HrEventEntry,
  type HrSyncConfigSnapshot,
  type LearnerSnapshot,
} from '@fundi/domain';
import type { ChangeEnrolmentStatus } from '../enrolments/change-enrolment-status.js';
import type { EnrolLearner } from '../enrolments/enrol-learner.js';
import type { RegisterLearner } from '../learners/register-learner.js';
import type { UpdateLearner } from '../learners/update-learner.js';
import { authenticateHrCall } from './authenticate-hr-call.js';
import { hrActor, type HrSyncDeps } from './hr-sync-ports.js';

export interface HrEventBody {
  id?: string;
  event: string;
  timestamp?: string;
  data: Record<string, unknown>;
}

export interface InboundCall {
  /** Form B's slug; null under Form A, where the key names the tenant. */
  tenantSlug: string | null;
  headers: Record<string, string | string[] | undefined>;
  body: HrEventBody;
}

export interface HrEventAnswer {
  learnerId: string;
  enrolmentId?: string;
  created?: boolean;
  withdrawnEnrolmentIds?: string[];
}

/** The learner and enrolment use cases an inbound event drives (the same ones the API uses). */
export interface InboundUseCases {
  registerLearner: RegisterLearner;
  updateLearner: UpdateLearner;
  enrolLearner: EnrolLearner;
  changeEnrolmentStatus: ChangeEnrolmentStatus;
}

/**
 * `POST /webhooks/hr-sync` (docs/api.md, "HR sync"): authenticates the webhook key, answers a repeated event
 * (same `id`, or without one the same body) as the first time, runs the event through the learner and enrolment
 * use cases and logs it. Every check on the input comes before the first write, so bad input writes nothing. A new
 * event's `timestamp` must lie within five minutes of now; a repeat of a processed one is answered whatever its age.
 */
export class ReceiveHrEvent {
  constructor(private readonly deps: HrSyncDeps & InboundUseCases) {}

  async execute(call: InboundCall): Promise<HrEventAnswer> {
    const config = await authenticateHrCall(this.deps, call);
    const body = call.body;
    const eventKey = body.id ? `id:${body.id}` : `sha256:${this.deps.secrets.hash(JSON.stringify(body))}`;
    const first = await this.deps.repos.hrEvents.findProcessed(config.tenantId, eventKey);
    if (first) {
      await this.log(config, body, eventKey, {
        result: 'duplicate',
        response: first.response,
        learnerId: first.learnerId,
      });
      return first.response as unknown as HrEventAnswer;
    }
    let answer: HrEventAnswer;
    try {
      answer = await this.handle(config, body);
    } catch (e) {
      const err = isDomainError(e) && e.kind === 'invalid' ? inHrTerms(e, config.fieldMapping) : e;
      if (isDomainError(err)) {
        const error = { code: err.code, message: err.message, fields: err.details.map((d) => d.field) };
        await this.log(config, body, eventKey, { result: 'failed', error });
      }
      throw err;
    }
    try {
      await this.log(config, body, eventKey, {
        result: 'processed',
        response: { ...answer },
        learnerId: answer.learnerId,
        data: body.data,
      });
    } catch (e) {
      // The same event processed at the same moment by another request: answer as that one did.
      if (!isDomainError(e) || e.code !== 'hr_event_duplicate') throw e;
      const other = await this.deps.repos.hrEvents.findProcessed(config.tenantId, eventKey);
      if (other) return other.response as unknown as HrEventAnswer;
    }
    return answer;
  }

  private handle(c: HrSyncConfigSnapshot, body: HrEventBody): Promise<HrEventAnswer> {
    checkHrEventTimestamp(body.timestamp, this.deps.clock.now());
    switch (body.event) {
      case 'employee.enrolled':
        return this.enrolled(c, body.data);
      case 'employee.updated':
        return this.updated(c, body.data);
      case 'employee.terminated':
        return this.terminated(c, body.data);
      default: {
        const message = `unknown event ${JSON.stringify(body.event)}; one of ${HR_INBOUND_EVENTS.join(', ')}`;
        throw new DomainError('invalid', 'unknown_event', message, [{ field: 'event', message }]);
      }
    }
  }

  private async enrolled(c: HrSyncConfigSnapshot, data: Record<string, unknown>): Promise<HrEventAnswer> {
    const now = this.deps.clock.now();
    const { repos } = this.deps;
    const { learner: input, extra } = applyMapping(c.fieldMapping, data, ['programmeCode']);
    const missing = REQUIRED_TARGETS.filter((t) => input[t] === undefined || input[t] === null);
    const code = extra.programmeCode;
    const errors: { field: string; message: string }[] = missing.map((t) => ({ field: t, message: 'is required' }));
    if (typeof code !== 'string' || code.trim() === '') errors.push({ field: 'programmeCode', message: 'is required' });
    if (errors.length) throw DomainError.invalidMany(errors);
    const programme = await repos.programmes.findByCode(c.tenantId, code as string);
    if (!programme) throw DomainError.invalid('programmeCode', 'unknown programme', 'unknown_programme');
    if (programme.status === 'retired')
      throw DomainError.conflict(
        'programme_retired',
        `Programme ${programme.code} is retired and takes no new enrolments`,
      );
    // The first write is the learner's (registered or updated), and that use case checks every field before it
    // writes: bad input writes nothing. Everything else was checked above.
    let existing = await this.match(c.tenantId, input);

    const actor = hrActor(c.tenantId);
    let created = false;
    if (existing) await this.deps.updateLearner.execute(actor, existing.id, input);
    else {
      try {
        existing = { id: (await this.deps.registerLearner.execute(actor, input)).id } as LearnerSnapshot;
        created = true;
      } catch (e) {
        // Registered a moment ago by a concurrent delivery of the same employee: use that learner.
        existing = isDomainError(e) && e.kind === 'conflict' ? await this.match(c.tenantId, input) : null;
        if (!existing) throw e;
      }
    }
    const learnerId = existing.id;
    const enrolmentId = await this.openEnrolment(c.tenantId, learnerId, programme.code, now, !created);
    return { learnerId, enrolmentId, created };
  }

  /** The learner's open enrolment in the programme (looked for unless the learner is new), or a new one from today. */
  private async openEnrolment(
    tenantId: string,
    learnerId: string,
    code: string,
    now: Date,
    look: boolean,
  ): Promise<string> {
    const open = async () =>
      (await this.deps.repos.enrolments.openForLearner(tenantId, learnerId)).find((e) => e.programmeCode === code);
    const found = look ? await open() : undefined;
    if (found) return found.id;
    try {
      const input = { learnerId, programmeCode: code, startDate: IsoDate.fromDate(now) };
      return (await this.deps.enrolLearner.execute(hrActor(tenantId), input)).id;
    } catch (e) {
      const raced = isDomainError(e) && e.kind === 'conflict' ? await open() : undefined;
      if (!raced) throw e;
      return raced.id;
    }
  }

  /** By employee reference, then by ID number. */
  private async match(tenantId: string, input: Record<string, unknown>): Promise<LearnerSnapshot | null> {
    const { learners } = this.deps.repos;
    if (typeof input.employeeRef === 'string') {
      const byRef = await learners.findByEmployeeRef(tenantId, input.employeeRef.trim());
      if (byRef) return byRef;
    }
    let idNumber: string | null = null;
    try {
      idNumber = SaIdNumber.parse(input.idNumber, 'idNumber', this.deps.clock.now());
    } catch {
      return null;
    }
    return learners.findByIdNumber(tenantId, idNumber);
  }

  private async employee(c: HrSyncConfigSnapshot, input: Record<string, unknown>): Promise<LearnerSnapshot> {
    const field = hrFieldFor(c.fieldMapping, 'employeeRef');
    if (typeof input.employeeRef !== 'string' || input.employeeRef.trim() === '')
      throw DomainError.invalid('employeeRef', 'is required');
    const learner = await this.deps.repos.learners.findByEmployeeRef(c.tenantId, input.employeeRef.trim());
    if (!learner) throw DomainError.invalid(field, 'no learner has this employee reference', 'unknown_employee');
    return learner;
  }

  private async updated(c: HrSyncConfigSnapshot, data: Record<string, unknown>): Promise<HrEventAnswer> {
    const { learner: input } = applyMapping(c.fieldMapping, data, []);
    const learner = await this.employee(c, input);
    await this.deps.updateLearner.execute(hrActor(c.tenantId), learner.id, input);
    return { learnerId: learner.id };
  }

  private async terminated(c: HrSyncConfigSnapshot, data: Record<string, unknown>): Promise<HrEventAnswer> {
    const now = this.deps.clock.now();
    const { learner: input, extra } = applyMapping(c.fieldMapping, data, ['reason', 'terminationDate']);
    const learner = await this.employee(c, input);
    const others = Object.keys(input).filter((k) => k !== 'employeeRef');
    if (others.length) throw DomainError.invalid(others[0]!, 'is not part of employee.terminated');
    const reason = extra.reason ?? 'Employment terminated';
    const effectiveDate =
      extra.terminationDate === undefined ? undefined : IsoDate.parse(extra.terminationDate, 'terminationDate');
    if (effectiveDate && effectiveDate > IsoDate.fromDate(now))
      throw DomainError.invalid('terminationDate', 'must not be in the future');
    const withdrawn: string[] = [];
    for (const e of await this.deps.repos.enrolments.openForLearner(c.tenantId, learner.id)) {
      await this.deps.changeEnrolmentStatus.execute(hrActor(c.tenantId), e.id, {
        status: 'withdrawn',
        reason,
        effectiveDate,
      });
      withdrawn.push(e.id);
    }
    return { learnerId: learner.id, withdrawnEnrolmentIds: withdrawn };
  }

  private async log(
    c: HrSyncConfigSnapshot,
    body: HrEventBody,
    eventKey: string,
    entry: Partial<Pick<HrEventEntry, 'response' | 'error' | 'learnerId' | 'data'>> & Pick<HrEventEntry, 'result'>,
  ): Promise<void> {
    const now = this.deps.clock.now();
    await this.deps.uow.run((tx) =>
      tx.hrEvents.add({
        id: newId('hre', now.getTime()),
        tenantId: c.tenantId,
        eventKey,
        hrEventId: typeof body.id === 'string' ? body.id : null,
        event: String(body.event).slice(0, 100),
        receivedAt: now.toISOString(),
        response: null,
        error: null,
        learnerId: null,
        data: null,
        redacted: false,
        ...entry,
      }),
    );
  }
}
