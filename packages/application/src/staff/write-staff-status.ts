import { DomainError } from '@fundi/domain';
import type { StaffRepos } from '@fundi/domain/staff';

/**
 * Sets a staff user's status in `tx`; a disabled user's dashboard sessions end at once. Answers the user as
 * written; not_found when the tenant has no such user. The caller records the change in its own words.
 */
export async function writeStaffStatus(
  tx: Pick<StaffRepos, 'staffCredentials' | 'dashboardSessions'>,
  tenantId: string,
  userId: string,
  status: 'active' | 'disabled',
  at: string,
) {
  const u = await tx.staffCredentials.findById(tenantId, userId);
  if (!u) throw DomainError.notFound('user', userId);
  const changed = { ...u, status, updatedAt: at };
  await tx.staffCredentials.update(changed);
  if (status === 'disabled') await tx.dashboardSessions.deleteForUser(u.tenantId, u.id);
  return changed;
}
