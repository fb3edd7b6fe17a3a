import { DomainError, IsoDate, isDomainError } from '@fundi/domain';
import { SaIdNumber, type LearnerSnapshot } from '@fundi/domain/learners';
import {
  HR_INBOUND_EVENTS,
  REQUIRED_TARGETS,
  applyMapping,
  checkHrEventTimestamp,
  hrFieldFor,
  type HrEventAnswer,
  type HrSyncConfigSnapshot,
} from '@fundi/domain/hr-sync';
import type { Actor } from '../common/actor.js';
import { hrActor, type HrSyncDeps } from './hr-sync-ports.js';
import type { HrEventBody, InboundUseCases } from './hr-inbound-call.js';

/**
 * What an inbound HR event does to learners and enrolments, through the same use cases the API uses:
 * `employee.enrolled` registers or updates the learner and opens an enrolment, `employee.updated` updates the
 * learner, `employee.terminated` withdraws the open enrolments (docs/api.md, "HR sync").
 */
export class HrEmployeeEvents {
  constructor(private readonly d: HrSyncDeps & InboundUseCases) {}

  /** `ip`: the HR system's address, the origin of every audit entry the event writes. */
  handle(c: HrSyncConfigSnapshot, body: HrEventBody, ip: string | null = null): Promise<HrEventAnswer> {
    checkHrEventTimestamp(body.timestamp, this.d.clock.now());
    const actor = hrActor(c.tenantId, ip);
    switch (body.event) {
      case 'employee.enrolled':
        return this.enrolled(c, actor, body.data);
      case 'employee.updated':
        return this.updated(c, actor, body.data);
      case 'employee.terminated':
        return this.terminated(c, actor, body.data);
      default: {
        const message = `unknown event ${JSON.stringify(body.event)}; one of ${HR_INBOUND_EVENTS.join(', ')}`;
        throw new DomainError('invalid', 'unknown_event', message, [{ field: 'event', message }]);
      }
    }
  }

  private async enrolled(c: HrSyncConfigSnapshot, actor: Actor, data: Record<string, unknown>): Promise<HrEventAnswer> {
    const now = this.d.clock.now();
    const { repos } = this.d;
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

    let created = false;
    if (existing) await this.d.updateLearner.execute(actor, existing.id, input);
    else {
      try {
        existing = { id: (await this.d.registerLearner.execute(actor, input)).id } as LearnerSnapshot;
        created = true;
      } catch (e) {
        // Registered a moment ago by a concurrent delivery of the same employee: use that learner.
        existing = isDomainError(e) && e.kind === 'conflict' ? await this.match(c.tenantId, input) : null;
        if (!existing) throw e;
      }
    }
    const learnerId = existing.id;
    const enrolmentId = await this.openEnrolment(actor, learnerId, programme.code, now, !created);
    return { learnerId, enrolmentId, created };
  }

  /** The learner's open enrolment in the programme (looked for unless the learner is new), or a new one from today. */
  private async openEnrolment(
    actor: Actor,
    learnerId: string,
    code: string,
    now: Date,
    look: boolean,
  ): Promise<string> {
    const open = async () =>
      (await this.d.repos.enrolments.openForLearner(actor.tenantId, learnerId)).find((e) => e.programmeCode === code);
    const found = look ? await open() : undefined;
    if (found) return found.id;
    try {
      const input = { learnerId, programmeCode: code, startDate: IsoDate.fromDate(now) };
      return (await this.d.enrolLearner.execute(actor, input)).id;
    } catch (e) {
      const raced = isDomainError(e) && e.kind === 'conflict' ? await open() : undefined;
      if (!raced) throw e;
      return raced.id;
    }
  }

  /** By employee reference, then by ID number. */
  private async match(tenantId: string, input: Record<string, unknown>): Promise<LearnerSnapshot | null> {
    const { learners } = this.d.repos;
    if (typeof input.employeeRef === 'string') {
      const byRef = await learners.findByEmployeeRef(tenantId, input.employeeRef.trim());
      if (byRef) return byRef;
    }
    let idNumber: string | null = null;
    try {
      idNumber = SaIdNumber.parse(input.idNumber, 'idNumber', this.d.clock.now());
    } catch {
      return null;
    }
    return learners.findByIdNumber(tenantId, idNumber);
  }

  private async employee(c: HrSyncConfigSnapshot, input: Record<string, unknown>): Promise<LearnerSnapshot> {
    const field = hrFieldFor(c.fieldMapping, 'employeeRef');
    if (typeof input.employeeRef !== 'string' || input.employeeRef.trim() === '')
      throw DomainError.invalid('employeeRef', 'is required');
    const learner = await this.d.repos.learners.findByEmployeeRef(c.tenantId, input.employeeRef.trim());
    if (!learner) throw DomainError.invalid(field, 'no learner has this employee reference', 'unknown_employee');
    return learner;
  }

  private async updated(c: HrSyncConfigSnapshot, actor: Actor, data: Record<string, unknown>): Promise<HrEventAnswer> {
    const { learner: input } = applyMapping(c.fieldMapping, data, []);
    const learner = await this.employee(c, input);
    await this.d.updateLearner.execute(actor, learner.id, input);
    return { learnerId: learner.id };
  }

  private async terminated(
    c: HrSyncConfigSnapshot,
    actor: Actor,
    data: Record<string, unknown>,
  ): Promise<HrEventAnswer> {
    const now = this.d.clock.now();
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
    for (const e of await this.d.repos.enrolments.openForLearner(c.tenantId, learner.id)) {
      await this.d.changeEnrolmentStatus.execute(actor, e.id, {
        status: 'withdrawn',
        reason,
        effectiveDate,
      });
      withdrawn.push(e.id);
    }
    return { learnerId: learner.id, withdrawnEnrolmentIds: withdrawn };
  }
}
