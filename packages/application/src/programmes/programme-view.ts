import { DomainError, looksLikeId } from '@fundi/domain';
import type { ProgrammeSnapshot } from '@fundi/domain/training';
import type { TrainingRepos } from '@fundi/domain/training';

export type ProgrammeView = Omit<ProgrammeSnapshot, 'tenantId'>;

export function programmeView(p: ProgrammeSnapshot): ProgrammeView {
  const { tenantId: _t, ...rest } = p;
  return rest;
}

/**
 * `/programmes/{id}` takes the programme id and, when no id matches, the programme code (docs/api.md).
 * Throws not_found otherwise, also for another tenant's programme.
 */
export async function findProgramme(
  repos: Pick<TrainingRepos, 'programmes'>,
  tenantId: string,
  idOrCode: string,
): Promise<ProgrammeSnapshot> {
  const byId = looksLikeId(idOrCode, 'prg') ? await repos.programmes.findById(tenantId, idOrCode) : null;
  const p = byId ?? (await repos.programmes.findByCode(tenantId, idOrCode));
  if (!p) throw DomainError.notFound('programme', idOrCode);
  return p;
}
