import { FixedClock } from '@fundi/testing';
import { expect, it } from 'vitest';
import { PASSWORD, WebClient } from '../testing/dashboard-client.js';
import { idNumberFor, learnerEnrolledIn, programmeBody } from '../testing/training-fixtures.js';
import { describeDashboardSuite } from './dashboard-http-fixture.js';

const text = (page: string) => page.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

// 22:30 UTC on 30 June is 00:30 on 1 July in Johannesburg (UTC+2), the default time zone.
const NOW = new Date('2026-06-30T22:30:00.000Z');

describeDashboardSuite(
  'dashboard over HTTP: the overview’s "today" is the tenant’s, in its time zone',
  (world) => {
    it('counts a deadline of yesterday as past and the next 30 days from the tenant’s date', async () => {
      const { s, apiKey } = world();
      expect((await s.call('POST', '/api/v1/programmes', apiKey, programmeBody('P-ZONE'))).status).toBe(201);
      const enrol = (n: number, firstName: string, expectedEndDate: string) =>
        learnerEnrolledIn(
          s,
          apiKey,
          { n: 200 + n, firstName, lastName: 'Zone' },
          { programmeCode: 'P-ZONE', startDate: '2026-06-15', expectedEndDate },
        );
      // Ended on 30 June: past in Johannesburg (1 July), not yet in UTC (still 30 June).
      await enrol(1, 'Lerato', '2026-06-30');
      // Ends 31 July: within 30 days of 1 July, not of 30 June.
      await enrol(2, 'Musa', '2026-07-31');

      const web = new WebClient(s.url);
      await web.signIn('web', 'admin@example.org', PASSWORD);
      const johannesburg = text((await web.get('/dashboard')).text);
      expect(johannesburg).toContain('Learners at risk 1 learner (1 open enrolment) past');
      expect(johannesburg).toContain(`Lerato Zone ${idNumberFor(7201)} P-ZONE Expected end 2026-06-30 has passed`);
      expect(johannesburg).toContain('Upcoming deadlines 1 open enrolment expected to end in the next 30 days.');
      expect(johannesburg).toContain(`Musa Zone ${idNumberFor(7202)} P-ZONE 2026-07-31`);

      // In UTC it is still 30 June: nothing is past, and 31 July is 31 days away.
      const set = await web.submit('/dashboard/settings', '/dashboard/settings/time-zone', { timeZone: 'UTC' });
      expect(set.status).toBe(303);
      const utc = text((await web.get('/dashboard')).text);
      expect(utc).toContain('Learners at risk 0 learners (0 open enrolments) past');
      expect(utc).toContain('Upcoming deadlines 1 open enrolment expected to end in the next 30 days.');
      expect(utc).toContain(`Lerato Zone ${idNumberFor(7201)} P-ZONE 2026-06-30`);
      expect(utc).not.toContain('Musa Zone');
    });
  },
  { clock: new FixedClock(NOW) },
);
