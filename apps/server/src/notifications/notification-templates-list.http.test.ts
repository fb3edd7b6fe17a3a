import { expect, it } from 'vitest';
import { expectPagedList } from '../testing/list-paging.js';
import { describeServerSuite } from '../testing/server-suite.js';
import { startTestServer } from '../testing/test-server.js';

/** `GET /notification-templates` is a list in each form's envelope, paged by template key in registration order. */
describeServerSuite(
  'notification templates over HTTP: a paged list',
  async (kind) => {
    const s = await startTestServer(kind);
    const { key } = await s.tenant('tpl');
    const other = await s.tenant('tpl-other');
    return { s, key, otherKey: other.key };
  },
  (world) => {
    it('answers the envelope in both forms and pages by key, refusing tampered and foreign cursors', async () => {
      const { s, key, otherKey } = world();
      const overridden = await s.call('PUT', '/api/v1/notification-templates/welcome', key, {
        subject: 'Welcome, {{learner.firstName}}',
        html: '<p>Hi</p>',
        text: 'Hi',
      });
      expect(overridden.status, JSON.stringify(overridden.body)).toBe(200);
      // A cursor of the same list in another tenant is not this tenant's.
      const foreign = (await s.call('GET', '/api/v1/notification-templates?limit=5', otherKey)).body.pagination
        .nextCursor;
      const keys = await expectPagedList(
        { s, key, slug: 'tpl', path: '/notification-templates', name: (t) => t.key },
        5,
        [foreign],
      );
      expect(keys.length).toBeGreaterThanOrEqual(15);
      expect(keys).toContain('welcome');

      const whole = await s.call('GET', '/api/v1/notification-templates?limit=100', key);
      const welcome = whole.body.data.find((t: { key: string }) => t.key === 'welcome');
      expect(welcome).toMatchObject({ overridden: true, channels: expect.arrayContaining(['email']) });
      expect(Object.keys(welcome).sort()).toEqual(
        ['audience', 'channels', 'description', 'key', 'overridden', 'variables'].sort(),
      );
      const theirs = await s.call('GET', '/api/v1/notification-templates?limit=100', otherKey);
      expect(theirs.body.data.map((t: { key: string }) => t.key)).toEqual(keys);
      expect(theirs.body.data.find((t: { key: string }) => t.key === 'welcome').overridden).toBe(false);
    });
  },
);
