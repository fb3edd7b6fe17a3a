import { expect, it } from 'vitest';
import { aTenant } from '@fundi/domain/testing';
import { describeEachStorage } from '../testing/each-storage.js';
import { CORE_STORAGE } from '../testing/test-databases.js';
import { notificationStorage } from './sql-notifications.js';

const PARTS = [...CORE_STORAGE, notificationStorage] as const;
const at = (minute: number) => new Date(Date.UTC(2026, 5, 1, 8, minute)).toISOString();

/** The staff users' notification preferences the notifications keep (`staffPreferences`). */
describeEachStorage(
  'Staff notification preferences contract',
  (get) => {
    it("stores and replaces a user's preferences, by tenant, and reads many users' at once", async () => {
      const repo = get().repos.staffPreferences;
      const [t, other] = [aTenant(), aTenant()];
      await repo.put(t.id, 'usr_a', { new_evidence: false }, at(0));
      await repo.put(t.id, 'usr_b', { security_alert: false, report_ready: true }, at(0));
      await repo.put(other.id, 'usr_a', { moderation_due: false }, at(0));
      await repo.put(t.id, 'usr_a', { new_evidence: true, quota_warning: false }, at(1));
      // 1,203 ids across chunks of 500, with unknown ids and a repeat.
      const filler = Array.from({ length: 1200 }, (_, i) => `usr_unknown${i}`);
      const ids = ['usr_a', ...filler.slice(0, 700), 'usr_b', ...filler.slice(700), 'usr_a'];
      expect(Object.fromEntries(await repo.forUsers(t.id, ids))).toEqual({
        usr_a: { new_evidence: true, quota_warning: false },
        usr_b: { security_alert: false, report_ready: true },
      });
      expect(Object.fromEntries(await repo.forUsers(other.id, ['usr_a', 'usr_b']))).toEqual({
        usr_a: { moderation_due: false },
      });
      expect((await repo.forUsers(t.id, [])).size).toBe(0);
    });
  },
  undefined,
  PARTS,
);
