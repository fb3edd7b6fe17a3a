import { auditStorage } from '@fundi/adapters/audit';
import { auditErasureStep, auditExport, auditUseCases } from '@fundi/application/audit';
import { auditRoutes, auditPages, enrolmentHistory, learnerHistory } from '@fundi/http/audit';
import { capability } from './capability.js';

/** The audit trail read and verified: `/audit`, `/audit/verify`, `/learners/{id}/history` (docs/api.md). */
export const audit = capability({
  name: 'audit',
  storage: auditStorage,
  // An erased learner's personal values leave their audit entries; the entries and the chain stay.
  declares: { offers: { learnerErasure: auditErasureStep, exportTypes: [auditExport] } },
  useCases: auditUseCases,
  routes: auditRoutes,
  pageDeps: (u) => ({ audit: u.audit }),
  dashboard: {
    nav: [{ href: '/dashboard/audit', label: 'Audit', order: 140, scope: 'audit:read' }],
    pages: [auditPages],
    sections: { learnerRecord: [learnerHistory], enrolmentRecord: [enrolmentHistory] },
  },
});
