import { describe, expect, it, vi } from 'vitest';
import { newId } from '@fundi/domain';
import { StaffCredential } from '@fundi/domain/staff';
import { anApiKey } from '@fundi/domain/testing';
import { fakeDeps } from '../testing/fakes.js';
import { CreateTenant } from '../tenants/create-tenant.js';
import { systemActorsOf } from './actor.js';
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
    // The service's own actors as the capabilities declare them (HR sync's among them).
    const shown = await new DescribeActors({ ...d, system: systemActorsOf(d.hooks.systemActor) }).expand(tenantId, {
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

  it("still names a revoked or expired key and a disabled user (an old record names them), others' stay null", async () => {
    const { d, tenantId, keyId, userId } = await aTenant();
    const expired = anApiKey({ tenantId, name: 'Old import key', expiresAt: '2020-01-01T00:00:00.000Z' });
    await d.repos.apiKeys.insert(expired);
    await d.repos.apiKeys.revoke(tenantId, keyId, d.clock.now().toISOString());
    const user = (await d.repos.staffCredentials.findById(tenantId, userId))!;
    await d.repos.staffCredentials.update({ ...user, status: 'disabled' });
    const other = await new CreateTenant(d).execute({ slug: 'other', name: 'Other', plan: 'standard' });
    const shown = await new DescribeActors(d).expand(tenantId, [
      { reviewedBy: keyId, uploadedBy: expired.id },
      { recordedBy: userId, confirmedBy: other.apiKey.id, createdBy: 'key_gone' },
    ]);
    expect(shown).toEqual([
      {
        reviewedBy: { type: 'api_key', id: keyId, name: 'Initial admin key' },
        uploadedBy: { type: 'api_key', id: expired.id, name: 'Old import key' },
      },
      {
        recordedBy: { type: 'user', id: userId, name: 'Ayanda Dlamini' },
        confirmedBy: { type: 'api_key', id: other.apiKey.id, name: null },
        createdBy: { type: 'api_key', id: 'key_gone', name: null },
      },
    ]);
  });

  it('reads only the keys and users named, each kind in one read, never the whole list', async () => {
    const { d, tenantId, keyId, userId } = await aTenant();
    const second = StaffCredential.create(
      { name: 'Lerato Mokoena', email: 'lerato@acme.example', role: 'admin' },
      { id: newId('usr'), tenantId, now: d.clock.now() },
    );
    await d.repos.staffCredentials.insert(second);
    for (let i = 0; i < 5; i++) await d.repos.apiKeys.insert(anApiKey({ tenantId }));
    const keys = vi.spyOn(d.repos.apiKeys, 'findByIds');
    const users = vi.spyOn(d.repos.staffCredentials, 'findByIds');
    const listKeys = vi.spyOn(d.repos.apiKeys, 'listByTenant');
    const oneUser = vi.spyOn(d.repos.staffCredentials, 'findById');
    const shown = await new DescribeActors(d).expand(
      tenantId,
      Array.from({ length: 50 }, (_, i) => ({ recordedBy: [keyId, userId, second.id, 'system'][i % 4] })),
    );
    expect(shown[2]).toEqual({ recordedBy: { type: 'user', id: second.id, name: 'Lerato Mokoena' } });
    expect(keys.mock.calls).toEqual([[tenantId, [keyId]]]);
    expect(users.mock.calls).toEqual([[tenantId, [userId, second.id]]]);
    expect(listKeys).not.toHaveBeenCalled();
    expect(oneUser).not.toHaveBeenCalled();

    keys.mockClear();
    users.mockClear();
    await new DescribeActors(d).expand(tenantId, { recordedBy: 'system', changedBy: 'hr-sync' });
    expect(keys).not.toHaveBeenCalled();
    expect(users).not.toHaveBeenCalled();
  });

  it('returns a value without actor fields as it is, without reading anything', async () => {
    const { d, tenantId } = await aTenant();
    const value = { id: 'x', items: [1, 2], createdAt: '2026-01-01' };
    expect(await new DescribeActors(d).expand(tenantId, value)).toBe(value);
  });
});
