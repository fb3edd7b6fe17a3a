import { expect, it } from 'vitest';
import { newId } from '@fundi/domain';
import { StaffCredential, type DashboardSessionSnapshot } from '@fundi/domain/staff';
import { describeEachStorage } from '../testing/each-storage.js';
import { CORE_STORAGE } from '../testing/test-databases.js';
import { staffStorage } from './staff-storage.js';

const PARTS = [...CORE_STORAGE, staffStorage] as const;
const NOW = new Date(Date.UTC(2026, 5, 1, 8, 0));

describeEachStorage(
  'Staff credential and dashboard session repositories contract',
  (get) => {
    const tenantA = `ten_a${Math.random().toString(36).slice(2, 8)}`;
    const tenantB = `ten_b${Math.random().toString(36).slice(2, 8)}`;
    const user = (tenantId: string, email: string) =>
      StaffCredential.create(
        { email, name: 'Thandi Nkosi', role: 'assessor' },
        { id: newId('usr'), tenantId, now: NOW },
      );

    it('stores a credential, finds it by case-insensitive email within its tenant only, and updates it', async () => {
      const { repos } = get();
      const u = user(tenantA, 'Thandi@Example.org');
      await repos.staffCredentials.insert(u);
      expect(u.email).toBe('thandi@example.org');
      expect(await repos.staffCredentials.findByEmail(tenantA, 'THANDI@example.org')).toEqual(u);
      expect(await repos.staffCredentials.findByEmail(tenantB, 'thandi@example.org')).toBeNull();
      expect(await repos.staffCredentials.findById(tenantB, u.id)).toBeNull();
      const changed = { ...u, passwordHash: 'scrypt$x', setPasswordTokenHash: 'tok', updatedAt: NOW.toISOString() };
      await repos.staffCredentials.update(changed);
      expect(await repos.staffCredentials.findById(tenantA, u.id)).toEqual(changed);
      expect(await repos.staffCredentials.findBySetPasswordToken('tok')).toEqual(changed);
      expect((await repos.staffCredentials.listByTenant(tenantA)).map((x) => x.id)).toEqual([u.id]);
    });

    it("finds the tenant's users by ids, disabled ones included, over long id lists", async () => {
      const { repos } = get();
      const active = user(tenantA, 'active@example.org');
      const disabled = {
        ...user(tenantA, 'disabled@example.org'),
        name: 'Sipho Mahlangu',
        status: 'disabled' as const,
      };
      const other = user(tenantB, 'other@example.org');
      for (const u of [active, disabled, other]) await repos.staffCredentials.insert(u);
      // 1,203 ids: the users sit in different chunks of 500, with unknown ids, a repeat and another tenant's user.
      const filler = Array.from({ length: 1199 }, (_, i) => `usr_unknown${i}`);
      const ids = [active.id, ...filler.slice(0, 700), other.id, ...filler.slice(700), disabled.id, active.id];
      const found = await repos.staffCredentials.findByIds(tenantA, ids);
      expect(found.sort((x, y) => x.email.localeCompare(y.email))).toEqual([active, disabled]);
      expect(await repos.staffCredentials.findByIds(tenantB, [active.id, other.id])).toEqual([other]);
      expect(await repos.staffCredentials.findByIds(tenantA, [])).toEqual([]);
    });

    it('stores a set-password token only while the user is active (and without a password when asked)', async () => {
      const { repos } = get();
      const u = user(tenantA, 'token@example.org');
      await repos.staffCredentials.insert(u);
      const token = (hash: string, onlyWithoutPassword = true) => ({
        hash,
        expiresAt: '2026-12-01T00:00:00.000Z',
        at: NOW.toISOString(),
        onlyWithoutPassword,
      });
      expect(await repos.staffCredentials.storeSetPasswordToken(tenantA, u.id, token('t1'))).toBe(true);
      expect(await repos.staffCredentials.findById(tenantA, u.id)).toEqual({
        ...u,
        setPasswordTokenHash: 't1',
        setPasswordExpiresAt: '2026-12-01T00:00:00.000Z',
        updatedAt: NOW.toISOString(),
      });
      expect(await repos.staffCredentials.storeSetPasswordToken(tenantB, u.id, token('t2'))).toBe(false);
      await repos.staffCredentials.update({ ...u, passwordHash: 'scrypt$x' });
      expect(await repos.staffCredentials.storeSetPasswordToken(tenantA, u.id, token('t3'))).toBe(false);
      expect(await repos.staffCredentials.storeSetPasswordToken(tenantA, u.id, token('t4', false))).toBe(true);
      await repos.staffCredentials.update({ ...u, status: 'disabled' });
      expect(await repos.staffCredentials.storeSetPasswordToken(tenantA, u.id, token('t5', false))).toBe(false);
      expect((await repos.staffCredentials.findById(tenantA, u.id))!.status).toBe('disabled');
      expect(await repos.staffCredentials.storeSetPasswordToken(tenantA, 'usr_absent', token('t6'))).toBe(false);
    });

    it('refuses a second user with the same email in a tenant (409), allows it in another tenant', async () => {
      const { repos } = get();
      await repos.staffCredentials.insert(user(tenantA, 'dup@example.org'));
      await expect(repos.staffCredentials.insert(user(tenantA, 'DUP@example.org'))).rejects.toMatchObject({
        kind: 'conflict',
        code: 'duplicate_email',
      });
      await repos.staffCredentials.insert(user(tenantB, 'dup@example.org'));
      await expect(repos.staffCredentials.update(user(tenantA, 'ghost@example.org'))).rejects.toMatchObject({
        kind: 'not_found',
      });
    });

    it("keeps sessions by token hash, deletes one, a user's, and expired ones", async () => {
      const { repos } = get();
      const session = (userId: string, expiresAt: string): DashboardSessionSnapshot => ({
        tokenHash: newId('usr'),
        tenantId: tenantA,
        userId,
        csrfToken: 'c',
        createdAt: NOW.toISOString(),
        expiresAt,
      });
      const a = session('usr_1', '2026-06-01T20:00:00.000Z');
      const b = session('usr_1', '2026-06-01T21:00:00.000Z');
      const old = session('usr_2', '2026-05-01T00:00:00.000Z');
      for (const s of [a, b, old]) await repos.dashboardSessions.insert(s);
      expect(await repos.dashboardSessions.find(a.tokenHash)).toEqual(a);
      expect(await repos.dashboardSessions.deleteExpired('2026-06-01T00:00:00.000Z')).toBe(1);
      expect(await repos.dashboardSessions.find(old.tokenHash)).toBeNull();
      await repos.dashboardSessions.delete(a.tokenHash);
      await repos.dashboardSessions.delete(a.tokenHash);
      expect(await repos.dashboardSessions.find(a.tokenHash)).toBeNull();
      expect(await repos.dashboardSessions.deleteForUser(tenantA, 'usr_1')).toBe(1);
      expect(await repos.dashboardSessions.find(b.tokenHash)).toBeNull();
    });
  },
  undefined,
  PARTS,
);
