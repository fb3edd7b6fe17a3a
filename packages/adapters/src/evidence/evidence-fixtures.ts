import { newId } from '@fundi/domain';
import type { EvidenceSnapshot, EvidenceVersionSnapshot } from '@fundi/domain/evidence';
import type { RepositoriesOf } from '../storage/capability-storage.js';
import { CORE_STORAGE, type TestStorage } from '../testing/test-databases.js';
import { aProgramme, anEnrolment, seedTenant } from '../testing/training-builders.js';
import { evidenceStorage } from './evidence-storage.js';

/** Shared fixtures of the evidence repository contract suites (evidence-*.contract.test.ts). */
export const PARTS = [...CORE_STORAGE, evidenceStorage] as const;
export const at = (minute: number) => new Date(Date.UTC(2026, 5, 1, 8, minute)).toISOString();

/** Version `version` of evidence `e`: submitted, unreviewed, created at minute `version`. */
export function aVersion(
  e: { id: string; tenantId: string },
  version: number,
  over: Partial<EvidenceVersionSnapshot> = {},
): EvidenceVersionSnapshot {
  return {
    tenantId: e.tenantId,
    evidenceId: e.id,
    version,
    filename: `file-v${version}.pdf`,
    contentType: 'application/pdf',
    size: 1000 * version,
    sha256: 'ab'.repeat(32),
    storageKey: `t/${e.tenantId}/evidence/${e.id}/v${version}`,
    uploadedBy: 'key_a',
    createdAt: at(version),
    status: 'submitted',
    reviewedAt: null,
    reviewedBy: null,
    feedback: null,
    ...over,
  };
}

/**
 * A tenant with two learners, a programme and an enrolment of the first learner in it, and `make`, which builds
 * evidence of that enrolment (version 1 current).
 */
export async function evidenceWorld(storage: TestStorage<RepositoriesOf<typeof PARTS>>) {
  const { repos, uow } = storage;
  const seeded = await seedTenant(repos, 2);
  const p = aProgramme(seeded.tenantId);
  await repos.programmes.insert(p);
  const enrolment = anEnrolment(p, seeded.learnerIds[0]!);
  await repos.enrolments.insert(enrolment);
  const make = (over: Partial<Omit<EvidenceSnapshot, 'current'>> = {}): EvidenceSnapshot => {
    const base = {
      id: newId('evd'),
      tenantId: seeded.tenantId,
      learnerId: seeded.learnerIds[0]!,
      enrolmentId: enrolment.id,
      moduleId: 'M1',
      evidenceType: 'portfolio' as const,
      createdAt: at(1),
      updatedAt: at(1),
      deletedAt: null,
      description: null,
      ...over,
    };
    return { ...base, current: aVersion(base, 1) };
  };
  return { repos, uow, make, enrolment, ...seeded };
}
