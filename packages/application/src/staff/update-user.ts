import { collect, DomainError, type ErrorDetail } from '@fundi/domain';
import { StaffCredential, type StaffPatch } from '@fundi/domain/staff';
import type { Actor } from '../common/actor.js';
import { recordChange } from '../common/record-change.js';
import type { StaffDeps } from './staff-deps.js';
import { type UserView, userView } from './staff-directory.js';
import { patchedValues, storedValues, writeValues } from './staff-fields.js';

/**
 * Changes a staff user's name, email, mobile or role, and the fields other capabilities add (`staffFields`), all in
 * one transaction (docs/api.md, "Users").
 */
export class UpdateUser {
  constructor(private readonly deps: StaffDeps) {}

  async execute(actor: Actor, id: string, patch: StaffPatch & Readonly<Record<string, unknown>>): Promise<UserView> {
    const now = this.deps.clock.now();
    const { fields } = this.deps;
    return this.deps.uow.run(async (tx) => {
      const u = await tx.staffCredentials.findById(actor.tenantId, id);
      if (!u) throw DomainError.notFound('user', id);
      const current = (await storedValues(fields, tx, actor.tenantId, [id])).get(id)!;
      const errors: ErrorDetail[] = [];
      const next = collect(errors, () => StaffCredential.update(u, patch, now));
      const values = patchedValues(fields, current, patch, errors);
      if (errors.length || !next) throw DomainError.invalidMany(errors);
      await tx.staffCredentials.update(next);
      const changed = fields.filter((f) => patch[f.name] !== undefined);
      await writeValues(changed, tx, actor.tenantId, id, values, now.toISOString());
      await recordChange(tx, actor, now, {
        action: 'user.updated',
        resourceType: 'user',
        resourceId: id,
        details: { fields: Object.keys(patch).filter((k) => patch[k] !== undefined) },
      });
      return userView(next, fields, values);
    });
  }
}
