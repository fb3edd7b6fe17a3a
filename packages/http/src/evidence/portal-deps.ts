import type { EvidenceUseCases } from '@fundi/application/evidence';

declare module '../portal/portal-deps.js' {
  /** The evidence use cases its sections and pages of the learner portal call (docs/dashboard.md, "Learner portal"). */
  interface PortalHttpDeps {
    evidence: EvidenceUseCases;
  }
}
