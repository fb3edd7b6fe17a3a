import type { AuditUseCases } from '@fundi/application/audit';
import type { AuditFilter } from '@fundi/domain/audit';
import { IdParams, type z } from '../schemas/common.js';
import { route, type RouteDef } from '../routes/route.js';
import { dayEnd, dayStart } from '../routes/range.js';
import { auditSchemas, ChainReportOut } from './audit-schemas.js';

const tag = 'Audit';

const filterOf = (
  q: z.output<ReturnType<typeof auditSchemas>['HistoryQuery']> & { learnerId?: string },
): AuditFilter => ({
  entityType: q.entityType,
  entityId: q.entityId,
  learnerId: q.learnerId,
  actorId: q.actorId,
  action: q.action,
  from: dayStart(q.from),
  to: dayEnd(q.to),
});

/** The audit trail (docs/api.md, "Audit trail"). */
export function auditRoutes(u: AuditUseCases): RouteDef[] {
  const { AuditEntryOut, AuditListQuery, HistoryQuery } = auditSchemas(u.audit.origins);
  return [
    route({
      operationId: 'listAudit',
      summary: 'The audit trail: who changed what, when, from where (newest first)',
      tag,
      method: 'get',
      path: '/audit',
      scope: 'audit:read',
      query: AuditListQuery,
      list: { item: AuditEntryOut },
      success: { status: 200, description: 'A page of audit entries, newest first' },
      handle: ({ actor, query, page }) => u.audit.list(actor, filterOf(query), page),
    }),
    route({
      operationId: 'verifyAudit',
      summary: "Re-walk the tenant's audit hash chain and report the first broken entry (admins)",
      tag,
      method: 'get',
      path: '/audit/verify',
      scope: 'audit:read',
      success: { status: 200, schema: ChainReportOut, description: 'Whether the chain holds' },
      handle: ({ actor }) => u.audit.verify(actor),
    }),
    route({
      operationId: 'learnerHistory',
      summary: "A learner's audit history: their record, enrolments, assessments and evidence (newest first)",
      tag,
      method: 'get',
      path: '/learners/{id}/history',
      scope: 'audit:read',
      params: IdParams,
      query: HistoryQuery,
      list: { item: AuditEntryOut },
      success: { status: 200, description: 'A page of audit entries, newest first' },
      errors: [404],
      handle: ({ actor, params, query, page }) => u.audit.learnerHistory(actor, params.id, filterOf(query), page),
    }),
  ];
}
