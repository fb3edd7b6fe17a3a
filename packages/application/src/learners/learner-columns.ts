import type { LearnerRepos, LearnerSnapshot } from '@fundi/domain/learners';

/** The columns naming a row's learner (empty once the learner is erased), for the CSVs of their records. */
export const personColumns = <R extends { l: LearnerSnapshot | null }>() => ({
  learner_id: (r: R) => r.l?.id ?? null,
  id_number: (r: R) => r.l?.idNumber ?? null,
  alternate_id: (r: R) => r.l?.alternateId ?? null,
  alternate_id_type: (r: R) => r.l?.alternateIdType ?? null,
  first_name: (r: R) => r.l?.firstName ?? null,
  last_name: (r: R) => r.l?.lastName ?? null,
});

/** The live learners of a page of rows, in one read (an erased or absent learner is not in the map). */
export async function learnersOf(
  r: Pick<LearnerRepos, 'learners'>,
  tenantId: string,
  ids: readonly string[],
): Promise<Map<string, LearnerSnapshot>> {
  const found = await r.learners.findByIds(tenantId, [...new Set(ids)]);
  return new Map(found.map((l) => [l.id, l]));
}
