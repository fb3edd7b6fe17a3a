import { expect, it } from 'vitest';
import { idNumberFor } from '@fundi/domain/testing';
import { expectPagedList } from '../testing/list-paging.js';
import { describeServerSuite } from '../testing/server-suite.js';
import { startTestServer } from '../testing/test-server.js';
import { enrolledLearner } from '../testing/training-fixtures.js';

/** `GET /enrolments/{id}/history` is a list of status changes in each form's envelope, paged by change id. */
describeServerSuite(
  'enrolment history over HTTP: a paged list',
  async (kind) => {
    const s = await startTestServer(kind);
    const { key } = await s.tenant('hist');
    const other = await s.tenant('hist-other');
    return { s, key, otherKey: other.key };
  },
  (world) => {
    let made = 0;
    /** An enrolment moved through `moves`, after the row of the enrolment itself. */
    async function enrolment(moves: string[]): Promise<string> {
      const { s, key } = world();
      const n = ++made;
      const { enrolment } = await enrolledLearner(s, key, '/api/v1', {
        code: `HIST-${n}`,
        idNumber: idNumberFor(7000 + n),
      });
      for (const status of moves) {
        const r = await s.call('PATCH', `/api/v1/enrolments/${enrolment.id}/status`, key, { status, reason: status });
        expect(r.status, JSON.stringify(r.body)).toBe(200);
      }
      return enrolment.id as string;
    }

    it('answers the envelope in both forms and pages by change id, refusing tampered and foreign cursors', async () => {
      const { s, key, otherKey } = world();
      const id = await enrolment(['in_progress', 'suspended', 'in_progress', 'suspended']);
      const otherId = await enrolment(['in_progress', 'withdrawn']);
      const foreign = [
        (await s.call('GET', `/api/v1/enrolments/${otherId}/history?limit=2`, key)).body.pagination.nextCursor,
        (await s.call('GET', '/api/v1/enrolments?limit=1', key)).body.pagination.nextCursor,
      ];
      expect(foreign.every((c) => typeof c === 'string')).toBe(true);
      const ids = await expectPagedList(
        { s, key, slug: 'hist', path: `/enrolments/${id}/history`, name: (c) => c.id },
        2,
        foreign,
      );
      expect(ids).toEqual([...ids].sort());

      const whole = await s.call('GET', `/api/v1/tenants/hist/enrolments/${id}/history?limit=100`, key);
      expect(whole.body.data.map((c: { from: string | null; to: string }) => [c.from, c.to])).toEqual([
        [null, 'enrolled'],
        ['enrolled', 'in_progress'],
        ['in_progress', 'suspended'],
        ['suspended', 'in_progress'],
        ['in_progress', 'suspended'],
      ]);
      expect(whole.body.data[1]).toMatchObject({
        enrolmentId: id,
        reason: 'in_progress',
        changedBy: { type: 'api_key', id: expect.any(String) },
      });
      expect((await s.call('GET', `/api/v1/enrolments/${id}/history?limit=2`, otherKey)).status).toBe(404);
      expect((await s.call('GET', `/api/v1/tenants/hist/enrolments/${id}/history?limit=x`, key)).status).toBe(400);
    });
  },
);
