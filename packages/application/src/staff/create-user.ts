import { collect, DomainError, type ErrorDetail, newId } from '@fundi/domain';
import { StaffCredential } from '@fundi/domain/staff';
import type { Actor } from '../common/actor.js';
import { recordChange } from '../common/record-change.js';
import type { StaffDeps } from './staff-deps.js';
import { USER_INVITED_EVENT, type UserView, userView } from './staff-directory.js';
import { givenValues, writeValues } from './staff-fields.js';

/**
 * Adds a person to the staff directory (`/users`, docs/api.md "Users"): they receive staff and admin messages and
 * sign in to the dashboard. Created without a password: an invitation by email lets them set one. The fields other
 * capabilities add (`staffFields`) are read with the user's own, every failing one reported at once, and those
 * given are written in the same transaction.
 */
export class CreateUser {
  constructor(private readonly deps: StaffDeps) {}

  async execute(
    actor: Actor,
    input: { name: unknown; email: unknown; role: unknown; mobile?: unknown } & Readonly<Record<string, unknown>>,
  ): Promise<UserView> {
    const now = this.deps.clock.now();
    const { fields } = this.deps;
    const errors: ErrorDetail[] = [];
    const u = collect(errors, () => StaffCredential.create(input, { id: newId('usr'), tenantId: actor.tenantId, now }));
    const values = givenValues(fields, input, errors);
    if (errors.length || !u) throw DomainError.invalidMany(errors);
    await this.deps.uow.run(async (tx) => {
      await tx.staffCredentials.insert(u);
      const given = fields.filter((f) => input[f.name] != null);
      await writeValues(given, tx, actor.tenantId, u.id, values, now.toISOString());
      await recordChange(tx, actor, now, {
        action: 'user.created',
        resourceType: 'user',
        resourceId: u.id,
        details: { role: u.role },
        events: [{ type: USER_INVITED_EVENT, data: { userId: u.id, invitedBy: actor.id } }],
      });
    });
    return userView(u, fields, values);
  }
}
