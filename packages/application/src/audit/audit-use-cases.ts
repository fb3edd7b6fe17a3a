import { DomainError, type Page, type PageRequest, type TenantRepos } from '@fundi/domain';
import {
  AUDIT_GENESIS,
  auditOrigins,
  checkChain,
  type AuditFilter,
  type AuditRepos,
  type AuditVia,
  type ChainBreak,
} from '@fundi/domain/audit';
import type { LearnerRepos } from '@fundi/domain/learners';
import type { StaffRepos } from '@fundi/domain/staff';
import { systemActorsOf, type Actor, type SystemActor } from '../common/actor.js';
import { DescribeActors } from '../common/describe-actors.js';
import type { OfferedHooks } from '../common/hooks.js';
import { checkRanges } from '../common/ranges.js';
import { auditView, type AuditView } from './audit-view.js';

export type AuditPorts = {
  repos: AuditRepos &
    Pick<LearnerRepos, 'learners'> &
    Pick<TenantRepos, 'apiKeys'> &
    Pick<StaffRepos, 'staffCredentials'>;
  /** The actors capabilities act as, with their origins. */
  hooks: Pick<OfferedHooks, 'systemActor'>;
};

/** The origins entries may show and the ids of the service's own actors, as the API describes them. */
export interface AuditOriginsView {
  /** Every origin, in its place (the enum of `origin.via`). */
  vias: readonly [AuditVia, ...AuditVia[]];
  /** The kernel's actors, then those capabilities declare, in the capability list's order. */
  systemActorIds: readonly string[];
}

/** Rows read per statement while the chain is walked. */
const CHAIN_BATCH = 1000;

export interface ChainReport {
  ok: boolean;
  checked: number;
  firstBreak: ChainBreak | null;
}

/** Reading the audit trail and checking its chain (docs/api.md, "Audit trail"). */
export class AuditTrailReader {
  private readonly actors: DescribeActors;
  private readonly system: ReadonlyMap<string, SystemActor>;
  constructor(private readonly d: AuditPorts) {
    this.system = systemActorsOf(d.hooks.systemActor);
    this.actors = new DescribeActors({ repos: d.repos, system: this.system });
  }

  /** The origins and the service's own actors (the kernel's and those capabilities declare). */
  get origins(): AuditOriginsView {
    return {
      vias: auditOrigins(this.d.hooks.systemActor.map((a) => a.origin)),
      systemActorIds: [...this.system.keys()],
    };
  }

  /** `GET /audit`: the tenant's entries, newest first. */
  async list(actor: Actor, filter: AuditFilter, page: PageRequest): Promise<Page<AuditView>> {
    checkRanges(filter, [['from', 'to']]);
    const found = await this.d.repos.auditTrail.list(actor.tenantId, filter, page);
    const refs = await this.actors.describe(
      actor.tenantId,
      found.items.map((r) => r.actor),
    );
    return { ...found, items: found.items.map((r) => auditView(r, refs, this.system)) };
  }

  /**
   * `GET /learners/{id}/history`: the entries of one learner (their record, enrolments, assessments, evidence).
   * An erased learner's history stays readable; a learner never known is 404.
   */
  async learnerHistory(actor: Actor, learnerId: string, filter: AuditFilter, page: PageRequest) {
    const history = await this.list(actor, { ...filter, learnerId }, page);
    if (history.total === 0 && !(await this.d.repos.learners.findById(actor.tenantId, learnerId)))
      throw DomainError.notFound('learner', learnerId);
    return history;
  }

  /**
   * `GET /audit/verify` (admins): walks the tenant's chain from its first entry and answers the first entry that
   * breaks it: a changed row, a removed or inserted one, altered personal values, or a chain whose end is not the
   * one the writer last recorded (entries removed from the end).
   */
  async verify(actor: Actor): Promise<ChainReport> {
    if (actor.role !== 'admin') throw DomainError.forbidden('Only an admin may verify the audit trail');
    const trail = this.d.repos.auditTrail;
    let prev = { seq: 0, hash: AUDIT_GENESIS };
    let checked = 0;
    let lastId: string | null = null;
    for (;;) {
      const { rows, personal } = await trail.chain(actor.tenantId, prev.seq, CHAIN_BATCH);
      if (rows.length === 0) break;
      const byId = new Map(personal.map((p) => [p.entryId, p]));
      const step = checkChain(rows, prev, (id) => byId.get(id));
      if (step.broken) {
        const good = rows.findIndex((r) => r.id === step.broken!.id);
        return { ok: false, checked: checked + good, firstBreak: step.broken };
      }
      checked += rows.length;
      prev = step.prev;
      lastId = rows.at(-1)!.id;
    }
    const head = await trail.head(actor.tenantId);
    if (head && (head.seq !== prev.seq || head.hash !== prev.hash))
      return { ok: false, checked, firstBreak: { id: lastId ?? '', seq: prev.seq, reason: 'head_mismatch' } };
    return { ok: true, checked, firstBreak: null };
  }
}

/** The audit capability's use cases. */
export function auditUseCases(p: AuditPorts) {
  return { audit: new AuditTrailReader(p) };
}

export type AuditUseCases = ReturnType<typeof auditUseCases>;
