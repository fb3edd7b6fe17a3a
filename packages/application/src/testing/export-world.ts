import { createHmac } from 'node:crypto';
import { Readable } from 'node:stream';
import { memoryStorage, MemoryFileStore } from '@fundi/memory';
import { evidenceMemory } from '@fundi/memory/evidence';
import { exportMemory } from '@fundi/memory/exports';
import { learnerMemory } from '@fundi/memory/learners';
import { logbookMemory } from '@fundi/memory/logbooks';
import { platformMemory } from '@fundi/memory/platform';
import { tenantMemory } from '@fundi/memory/tenants';
import { trainingMemory } from '@fundi/memory/training';
import { auditMemory } from '@fundi/memory/audit';
import { staffMemory } from '@fundi/memory/staff';
import { FixedClock } from '@fundi/testing';
import { aTenant } from '@fundi/domain/testing';
import { systemActorsOf } from '../common/actor.js';
import { EncryptedFileVault, MasterKeyring } from '../files/encrypted-vault.js';
import type { FileVault } from '../files/file-vault.js';
import { exportUseCases } from '../exports/export-use-cases.js';
import { exportTypesOf, OWN_EXPORT_TYPES } from '../exports/own-export-types.js';
import { learnerExport } from '../learners/learner-export.js';
import { enrolmentExport } from '../enrolments/enrolment-export.js';
import { assessmentExport } from '../assessments/assessment-export.js';
import { evidenceExport } from '../evidence/evidence-export.js';
import { auditExport } from '../audit/audit-export.js';
import { logbookExport } from '../logbooks/logbook-export.js';

/** Every export type as the service's capabilities offer them, in the capability list's order. */
export const TEST_EXPORT_TYPES = exportTypesOf([
  [learnerExport],
  [enrolmentExport, assessmentExport],
  [evidenceExport],
  OWN_EXPORT_TYPES,
  [auditExport],
  [logbookExport],
]);

/** Signs with HMAC-SHA256 under a fixed key, and checks both the signature and the purpose. */
export const testSigner = {
  sign: (p: string, purpose: string) =>
    `${Buffer.from(p).toString('base64url')}.${createHmac('sha256', 'k').update(`${purpose}|${p}`).digest('base64url')}`,
  verify: (t: string, purpose: string) => {
    const [b, sig] = t.split('.');
    const p = Buffer.from(b ?? '', 'base64url').toString();
    return sig === createHmac('sha256', 'k').update(`${purpose}|${p}`).digest('base64url') ? p : null;
  },
};

/**
 * The export use cases over the in-memory fakes with one tenant and its admin actor; the clock stands at
 * 2026-06-01 08:00 UTC and files go encrypted into memory unless `files` is given.
 */
export async function exportWorld(o: { files?: FileVault; publicUrl?: string } = {}) {
  const clock = new FixedClock(new Date('2026-06-01T08:00:00.000Z'));
  const m = memoryStorage([
    platformMemory,
    tenantMemory,
    learnerMemory,
    trainingMemory,
    evidenceMemory,
    exportMemory,
    logbookMemory,
    auditMemory,
    staffMemory,
  ]);
  const repos = m.repositories();
  const tenant = aTenant();
  await repos.tenants.insert(tenant);
  const vault = o.files ?? new EncryptedFileVault(new MemoryFileStore(), new MasterKeyring([Buffer.alloc(32, 3)]));
  const exports = exportUseCases({
    repos,
    uow: m.uow,
    clock,
    files: vault,
    signer: testSigner,
    zip: () => Readable.from([]),
    settings: { publicUrl: o.publicUrl ?? 'https://fundi.example', retentionDays: 7 },
    types: TEST_EXPORT_TYPES,
    system: systemActorsOf([]),
  });
  const actor = { tenantId: tenant.id, id: 'key_1', role: 'admin' as const, scopes: [] };
  return { exports, actor, tenant, repos, uow: m.uow, store: m.store, clock, vault };
}
