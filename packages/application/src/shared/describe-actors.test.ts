import { describe, expect, it } from 'vitest';
import { StaffCredential, newId } from '@fundi/domain';
import { fakeDeps } from '../testing/fakes.js';
import { CreateTenant } from '../tenants/create-tenant.js';
import { DescribeActors } from './describe-actors.js';

async function aTenant() {
  const d = fakeDeps();
  const created = await new CreateTenant(d).execute({ slug: 'acme', name: 'Acme', plan: 'standard' });
  const user = StaffCredential.create(
    { name: 'Ayanda Dlamini', email: 'ayanda@acme.example', role: 'assessor' },
    { id: newId('usr'), tenantId: created.tenant.id, now: d.clock.now() },
  );
  await d.repos.staffCredentials.insert(user);
  return { d, tenantId: created.tenant.id, keyId: created.apiKey.id, userId: user.id };
}

describe('DescribeActors', () => {
  it('shows keys, staff users and the service as {type, id, name}, anywhere in a value', async () => {
    const { d, tenantId, keyId, userId } = await aTenant();
    const shown = await new DescribeActors(d).expand(tenantId, {
      data: [
        { id: 'a1', recordedBy: keyId, note: keyId },
        { id: 'a2', recordedBy: userId, moderation: { moderatedBy: 'system' } },
      ],
      history: [{ changedBy: 'hr-sync' }, { changedBy: 'cli' }],
    });
    expect(shown).toEqual({
      data: [
        { id: 'a1', recordedBy: { type: 'api_key', id: keyId, name: 'Initial admin key' }, note: keyId },
        {
          id: 'a2',
          recordedBy: { type: 'user', id: userId, name: 'Ayanda Dlamini' },
          moderation: { moderatedBy: { type: 'system', id: 'system', name: 'Fundi' } },
        },
      ],
      history: [
        { changedBy: { type: 'system', id: 'hr-sync', name: 'HR sync' } },
        { changedBy: { type: 'system', id: 'cli', name: 'Operator (command line)' } },
      ],
    });
  });

  it("keeps a null name for a key or user that no longer exists or is another tenant's", async () => {
    const { d, keyId } = await aTenant();
    const other = await new CreateTenant(d).execute({ slug: 'other', name: 'Other', plan: 'standard' });
    const shown = await new DescribeActors(d).expand(other.tenant.id, {
      reviewedBy: keyId,
      uploadedBy: 'usr_gone',
      confirmedBy: null,
    });
    expect(shown).toEqual({
      reviewedBy: { type: 'api_key', id: keyId, name: null },
      uploadedBy: { type: 'user', id: 'usr_gone', name: null },
      confirmedBy: null,
    });
  });

  it('returns a value without actor fields as it is, without reading anything', async () => {
    const { d, tenantId } = await aTenant();
    const value = { id: 'x', items: [1, 2], createdAt: '2026-01-01' };
    expect(await new DescribeActors(d).expand(tenantId, value)).toBe(value);
  });
});
