import { DomainError, type ErrorDetail } from '../common/errors.js';
import { IsoDate } from '../common/dates.js';
import { collecting } from './parse.js';
import { ENROLMENT_MOVES, OPEN_STATUSES, type EnrolmentStatus } from './enrolment-status.js';

export interface EnrolmentSnapshot {
  id: string;
  tenantId: string;
  learnerId: string;
  programmeId: string;
  programmeCode: string;
  startDate: string;
  expectedEndDate: string | null;
  fundingSource: string | null;
  status: EnrolmentStatus;
  /** Set when the enrolment completes (the effective date of that move). */
  achievementDate: string | null;
  createdAt: string;
  updatedAt: string;
}

/** One row of an enrolment's history; `from` is null for the initial `enrolled`. */
export interface StatusChange {
  id: string;
  tenantId: string;
  enrolmentId: string;
  from: EnrolmentStatus | null;
  to: EnrolmentStatus;
  reason: string | null;
  effectiveDate: string;
  /** The acting API key id (or `cli` / `system`). */
  changedBy: string;
  changedAt: string;
}

export interface MoveRequest {
  reason?: unknown;
  effectiveDate?: unknown;
}

export interface MoveContext {
  now: Date;
  /** Modules without a competent summative result; only consulted when completing. */
  missingModules?: readonly string[];
}

function optionalText(field: string, value: unknown, max: number): string | null {
  if (value == null) return null;
  if (typeof value !== 'string' || value.trim().length > max)
    throw DomainError.invalid(field, `must be a string of at most ${max} characters`);
  return value.trim() || null;
}

function notFuture(field: string, value: unknown, now: Date): IsoDate {
  const d = IsoDate.parse(value, field);
  if (d > IsoDate.fromDate(now)) throw DomainError.invalid(field, 'must not be in the future');
  return d;
}

export class Enrolment {
  private constructor(private state: EnrolmentSnapshot) {}

  static enrol(
    input: { startDate?: unknown; expectedEndDate?: unknown; fundingSource?: unknown },
    ctx: { id: string; tenantId: string; learnerId: string; programmeId: string; programmeCode: string; now: Date },
  ): Enrolment {
    const errors: ErrorDetail[] = [];
    const grab = collecting(errors);
    const startDate = grab(() => IsoDate.parse(input.startDate, 'startDate'));
    const expectedEndDate =
      input.expectedEndDate == null
        ? null
        : (grab(() => IsoDate.parse(input.expectedEndDate, 'expectedEndDate')) ?? null);
    const fundingSource = grab(() => optionalText('fundingSource', input.fundingSource, 50)) ?? null;
    if (startDate && expectedEndDate && expectedEndDate < startDate)
      errors.push({ field: 'expectedEndDate', message: 'must not be before startDate' });
    if (errors.length || !startDate) throw DomainError.invalidMany(errors);
    const at = ctx.now.toISOString();
    const { id, tenantId, learnerId, programmeId, programmeCode } = ctx;
    return new Enrolment({
      id,
      tenantId,
      learnerId,
      programmeId,
      programmeCode,
      startDate,
      expectedEndDate,
      fundingSource,
      status: 'enrolled',
      achievementDate: null,
      createdAt: at,
      updatedAt: at,
    });
  }

  static fromSnapshot(s: EnrolmentSnapshot): Enrolment {
    return new Enrolment({ ...s });
  }

  static isOpen(s: Pick<EnrolmentSnapshot, 'status'>): boolean {
    return OPEN_STATUSES.includes(s.status);
  }

  get status(): EnrolmentStatus {
    return this.state.status;
  }

  /**
   * Checks the move against the enrolment state machine (docs/api.md, "Enrolments") and applies it. `completed`
   * needs `ctx.missingModules` empty and records the achievement date. Throws conflict `illegal_status_change` or
   * `modules_incomplete`.
   */
  moveTo(
    to: EnrolmentStatus,
    req: MoveRequest,
    ctx: MoveContext,
  ): { from: EnrolmentStatus; to: EnrolmentStatus; reason: string | null; effectiveDate: string } {
    return this.move(to, req, ctx);
  }

  private move(to: EnrolmentStatus, req: MoveRequest, ctx: MoveContext) {
    const from = this.state.status;
    if (!ENROLMENT_MOVES[from].includes(to)) {
      throw DomainError.conflict(
        'illegal_status_change',
        `An enrolment cannot move from ${from} to ${to}`,
        [{ field: 'status', message: `cannot move from ${from} to ${to}` }],
        { currentStatus: from, requestedStatus: to },
      );
    }
    const reason = optionalText('reason', req.reason, 1000);
    const effectiveDate =
      req.effectiveDate == null ? IsoDate.fromDate(ctx.now) : notFuture('effectiveDate', req.effectiveDate, ctx.now);
    if (to === 'completed') {
      const missing = ctx.missingModules ?? [];
      if (missing.length) {
        throw DomainError.conflict(
          'modules_incomplete',
          `The enrolment cannot complete: no competent summative result for ${missing.join(', ')}`,
          [],
          { currentStatus: from, requestedStatus: to, missingModules: [...missing] },
        );
      }
      if (effectiveDate < this.state.startDate)
        throw DomainError.invalid('effectiveDate', 'must not be before the enrolment startDate');
      this.state.achievementDate = effectiveDate;
    }
    this.state.status = to;
    this.state.updatedAt = ctx.now.toISOString();
    return { from, to, reason, effectiveDate };
  }

  toSnapshot(): EnrolmentSnapshot {
    return { ...this.state };
  }
}
