import { expect, it } from 'vitest';
import { PASSWORD, WebClient, csrfOf } from '../testing/dashboard-client.js';
import { assessmentBody, learnerEnrolledIn, programmeBody } from '../testing/training-fixtures.js';
import { describeDashboardSuite } from './dashboard-http-fixture.js';

const MODULES = ['M1', 'M2', 'M3', 'M4', 'M5'];
const forms = (html: string, sampleId: string) =>
  html.split(`<form method="post" action="/dashboard/moderation/${sampleId}/`).length - 1;

/** A moderation sample's page shows its results 50 at a time, each with its decision form (docs/dashboard.md). */
describeDashboardSuite('dashboard over HTTP: a moderation sample in pages', (world) => {
  it('pages a sample of 60 results as 50 and 10, and a decision brings the moderator back to its page', async () => {
    const { s, apiKey } = world();
    expect((await s.call('POST', '/api/v1/programmes', apiKey, programmeBody('MOD-PG', MODULES))).status).toBe(201);
    for (let n = 0; n < 12; n++) {
      const { learnerId } = await learnerEnrolledIn(
        s,
        apiKey,
        { n: 300 + n, firstName: 'Sipho', lastName: `Moderated${n}` },
        { programmeCode: 'MOD-PG', startDate: '2026-01-10' },
      );
      for (const m of MODULES)
        expect((await s.call('POST', '/api/v1/assessments', apiKey, assessmentBody(learnerId, m))).status).toBe(201);
    }
    const drawn = await s.call('POST', '/api/v1/moderation/samples', apiKey, { programmeCode: 'MOD-PG', percent: 100 });
    expect(drawn.status).toBe(201);
    const id = drawn.body.id as string;
    expect(drawn.body.assessmentIds).toHaveLength(60);

    const web = new WebClient(s.url);
    await web.signIn('web', 'admin@example.org', PASSWORD);
    const first = await web.get(`/dashboard/moderation/${id}`);
    expect(first.status).toBe(200);
    expect(forms(first.text, id)).toBe(50);
    expect(first.text).toContain('Results 1-50 of 60 · page 1 of 2.');
    expect(first.text).toContain(`href="/dashboard/moderation/${id}?page=1">Next</a>`);
    expect(first.text).not.toContain('>Previous</a>');

    const second = await web.get(`/dashboard/moderation/${id}?page=1`);
    expect(forms(second.text, id)).toBe(10);
    expect(second.text).toContain('Results 51-60 of 60 · page 2 of 2.');
    expect(second.text).toContain(`href="/dashboard/moderation/${id}?page=0">Previous</a>`);
    expect(second.text).not.toContain('>Next</a>');
    // A page past the last shows the last.
    expect(forms((await web.get(`/dashboard/moderation/${id}?page=7`)).text, id)).toBe(10);

    const onSecond = drawn.body.assessmentIds[55] as string;
    const action = `/dashboard/moderation/${id}/${onSecond}?page=1`;
    expect(second.text).toContain(`action="${action}"`);
    const decided = await web.post(action, { _csrf: csrfOf(second.text), decision: 'upheld', notes: 'Checked.' });
    expect(decided.status).toBe(303);
    expect(decided.headers.get('location')).toBe(`/dashboard/moderation/${id}?page=1`);
    const after = await web.get(`/dashboard/moderation/${id}?page=1`);
    expect(forms(after.text, id)).toBe(9);
    expect(after.text).toContain('upheld: Checked.');
  });
});
