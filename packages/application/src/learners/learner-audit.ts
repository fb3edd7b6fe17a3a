import type { FieldChange } from '@fundi/domain/audit';
import type { LearnerChange } from '@fundi/domain/learners';

/** Learner fields that say nothing about who the person is: their changes are kept in the audit entry itself. */
const NOT_PERSONAL: ReadonlySet<string> = new Set([
  'whatsappConsent',
  'whatsappConsentAt',
  'emailOptOut',
  'contactUpdateNeeded',
  'updatedAt',
]);

/**
 * A learner's changes for the audit trail: the fields that identify or describe the person (names, ID number,
 * contacts, date of birth, demographics, ...) apart from the rest, so that erasure removes their values
 * (docs/api.md, "Audit trail").
 */
export function learnerAuditChanges(changes: readonly LearnerChange[]): {
  changes: Record<string, FieldChange>;
  personal: Record<string, FieldChange>;
} {
  const out = { changes: {} as Record<string, FieldChange>, personal: {} as Record<string, FieldChange> };
  for (const c of changes)
    (NOT_PERSONAL.has(c.field) ? out.changes : out.personal)[c.field] = { from: c.from, to: c.to };
  return out;
}
