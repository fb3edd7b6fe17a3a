import { expect, it } from 'vitest';
import { newId } from '@fundi/domain';
import type { UploadTicketSnapshot } from '@fundi/domain/evidence';
import { describeEachStorage } from '../testing/each-storage.js';
import { at, evidenceWorld, PARTS } from './evidence-fixtures.js';

describeEachStorage(
  'UploadTicketRepository contract',
  (get) => {
    const world = () => evidenceWorld(get());

    it('consumes an upload ticket once', async () => {
      const { repos, tenantId, learnerIds, enrolment } = await world();
      const t: UploadTicketSnapshot = {
        id: newId('upl'),
        tenantId,
        evidenceId: newId('evd'),
        version: 1,
        learnerId: learnerIds[0]!,
        enrolmentId: enrolment.id,
        moduleId: 'M1',
        evidenceType: 'portfolio',
        filename: 'a.pdf',
        size: 10,
        createdBy: 'key_a',
        createdAt: at(1),
        expiresAt: at(61),
        usedAt: null,
      };
      await repos.uploadTickets.insert(t);
      expect(await repos.uploadTickets.findById(tenantId, t.id)).toEqual(t);
      expect(await repos.uploadTickets.findById('ten_other', t.id)).toBeNull();
      expect(await repos.uploadTickets.consume(tenantId, t.id, at(2))).toBe(true);
      expect(await repos.uploadTickets.consume(tenantId, t.id, at(3))).toBe(false);
      expect((await repos.uploadTickets.findById(tenantId, t.id))?.usedAt).toBe(at(2));
    });

    it("removes a learner's tickets (an erasure), nobody else's", async () => {
      const { repos, tenantId, learnerIds, enrolment } = await world();
      const ticket = (learnerId: string, filename: string): UploadTicketSnapshot => ({
        id: newId('upl'),
        tenantId,
        evidenceId: newId('evd'),
        version: 1,
        learnerId,
        enrolmentId: enrolment.id,
        moduleId: 'M1',
        evidenceType: 'portfolio',
        filename,
        size: 10,
        createdBy: 'key_a',
        createdAt: at(1),
        expiresAt: at(61),
        usedAt: null,
      });
      const erased = [ticket(learnerIds[0]!, 'a.pdf'), ticket(learnerIds[0]!, 'b.pdf')];
      const kept = ticket(learnerIds[1]!, 'c.pdf');
      for (const t of [...erased, kept]) await repos.uploadTickets.insert(t);
      expect(await repos.uploadTickets.removeOfLearner('ten_other', learnerIds[0]!)).toBe(0);
      expect(await repos.uploadTickets.removeOfLearner(tenantId, learnerIds[0]!)).toBe(2);
      for (const t of erased) expect(await repos.uploadTickets.findById(tenantId, t.id)).toBeNull();
      expect(await repos.uploadTickets.findById(tenantId, kept.id)).toEqual(kept);
    });
  },
  undefined,
  PARTS,
);
