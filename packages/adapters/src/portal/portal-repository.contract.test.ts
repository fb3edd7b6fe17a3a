import { expect, it } from 'vitest';
import type { PortalSignInSnapshot } from '@fundi/domain/portal';
import { describeEachStorage } from '../testing/each-storage.js';
import { CORE_STORAGE } from '../testing/test-databases.js';
import { portalStorage } from './portal-storage.js';

const PARTS = [...CORE_STORAGE, portalStorage] as const;
const AT = '2026-06-01T08:00:00.000Z';
const LATER = '2026-06-01T08:20:00.000Z';

describeEachStorage(
  'Portal sign-in and session repositories contract',
  (get) => {
    const tenant = `ten_p${Math.random().toString(36).slice(2, 8)}`;
    const signIn = (tokenHash: string, learnerId = 'lrn_a'): PortalSignInSnapshot => ({
      tokenHash,
      tenantId: tenant,
      learnerId,
      channel: 'email',
      createdAt: AT,
      expiresAt: '2026-06-01T08:15:00.000Z',
      usedAt: null,
    });

    it('consumes a sign-in once, only before it expires; a learner’s unused ones can be ended', async () => {
      const { repos } = get();
      const [a, b, c] = [signIn(`h-a-${tenant}`), signIn(`h-b-${tenant}`), signIn(`h-c-${tenant}`, 'lrn_b')];
      for (const s of [a, b, c]) await repos.portalSignIns.insert(s);
      expect(await repos.portalSignIns.consume(a.tokenHash, AT)).toEqual({ ...a, usedAt: AT });
      expect(await repos.portalSignIns.consume(a.tokenHash, AT)).toBeNull();
      expect(await repos.portalSignIns.consume(b.tokenHash, LATER)).toBeNull();
      expect(await repos.portalSignIns.consume('unknown', AT)).toBeNull();
      expect(await repos.portalSignIns.deleteForLearner(tenant, 'lrn_a')).toBe(1);
      expect(await repos.portalSignIns.consume(c.tokenHash, AT)).toEqual({ ...c, usedAt: AT });
      expect(await repos.portalSignIns.deleteExpired(LATER, 10)).toBeGreaterThanOrEqual(2);
    });

    it('stores sessions by hash, ends one or every one of a learner, and sweeps the expired', async () => {
      const { repos } = get();
      const s = (h: string, learnerId: string, expiresAt: string) => ({
        tokenHash: `${h}-${tenant}`,
        tenantId: tenant,
        learnerId,
        csrfToken: 'csrf',
        createdAt: AT,
        expiresAt,
      });
      const [one, two, three] = [s('1', 'lrn_a', LATER), s('2', 'lrn_a', LATER), s('3', 'lrn_b', AT)];
      for (const x of [one, two, three]) await repos.portalSessions.insert(x);
      expect(await repos.portalSessions.find(one.tokenHash)).toEqual(one);
      await repos.portalSessions.delete(one.tokenHash);
      expect(await repos.portalSessions.find(one.tokenHash)).toBeNull();
      expect(await repos.portalSessions.deleteForLearner(tenant, 'lrn_a')).toBe(1);
      expect(await repos.portalSessions.deleteExpired('2026-06-01T08:10:00.000Z')).toBeGreaterThanOrEqual(1);
      expect(await repos.portalSessions.find(three.tokenHash)).toBeNull();
      expect(await repos.portalSessions.find(two.tokenHash)).toBeNull();
    });
  },
  undefined,
  PARTS,
);
