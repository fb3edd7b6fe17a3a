import { beforeAll, expect, it } from 'vitest';
import type { TenantSnapshot } from '@fundi/domain';
import { aTenant } from '@fundi/domain/testing';
import { describeEachStorage } from '../testing/each-storage.js';
import { CORE_STORAGE } from '../testing/test-databases.js';
import { notificationStorage } from './sql-notifications.js';

const PARTS = [...CORE_STORAGE, notificationStorage] as const;
const at = (minute: number) => new Date(Date.UTC(2026, 5, 1, 8, minute)).toISOString();

/** A tenant's own notification setup: its template overrides and its channel settings. */
describeEachStorage(
  'Notification templates and settings contract',
  (get) => {
    let t: TenantSnapshot;
    let other: TenantSnapshot;
    beforeAll(async () => {
      t = aTenant();
      other = aTenant();
      await get().repos.tenants.insert(t);
      await get().repos.tenants.insert(other);
    });

    it('stores template overrides per tenant and key', async () => {
      const repo = get().repos.notificationTemplates;
      const o = { key: 'welcome', subject: 'Hi {{learner.firstName}}', html: '<p>x</p>', text: 'x', updatedAt: at(0) };
      await repo.put(t.id, o);
      expect(await repo.get(t.id, 'welcome')).toEqual(o);
      expect(await repo.get(other.id, 'welcome')).toBeNull();
      const changed = { ...o, subject: 'Hello', updatedAt: at(2) };
      await repo.put(t.id, changed);
      await repo.put(t.id, { ...o, key: 'assessment_result' });
      expect((await repo.list(t.id)).map((x) => [x.key, x.subject])).toEqual([
        ['assessment_result', o.subject],
        ['welcome', 'Hello'],
      ]);
      expect(await repo.delete(t.id, 'welcome')).toBe(true);
      expect(await repo.delete(t.id, 'welcome')).toBe(false);
      expect(await repo.get(t.id, 'welcome')).toBeNull();
    });

    it('stores settings per tenant and finds them by WhatsApp phone number id', async () => {
      const repo = get().repos.notificationSettings;
      expect(await repo.get(t.id)).toBeNull();
      const s = {
        tenantId: t.id,
        triggers: { welcome: false },
        smtp: {
          host: 'mail.example.org',
          port: 587,
          secure: false,
          user: 'u',
          passwordCiphertext: 'c1',
          from: 'a@b.org',
        },
        whatsapp: {
          phoneNumberId: `pn_${t.id}`,
          baseUrl: 'https://graph.facebook.com',
          apiVersion: 'v21.0',
          accessTokenCiphertext: 'c2',
          appSecretCiphertext: 'c3',
          verifyToken: 'vt',
        },
        callbackSecretCiphertext: 'c4',
        updatedAt: at(0),
      };
      await repo.put(s);
      expect(await repo.get(t.id)).toEqual(s);
      expect(await repo.findByPhoneNumberId(`pn_${t.id}`)).toEqual(s);
      expect(await repo.findByPhoneNumberId('pn_nobody')).toBeNull();
      await repo.put({ ...s, whatsapp: null, updatedAt: at(3) });
      expect(await repo.findByPhoneNumberId(`pn_${t.id}`)).toBeNull();
      expect((await repo.listWithSecrets()).map((x) => x.tenantId)).toContain(t.id);
    });
  },
  undefined,
  PARTS,
);
