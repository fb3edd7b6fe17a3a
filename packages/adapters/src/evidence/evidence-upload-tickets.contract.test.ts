import { expect, it } from 'vitest';
import { newId, type UploadTicketSnapshot } from '@fundi/domain';
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
  },
  undefined,
  PARTS,
);
