import { expect, it, vi } from 'vitest';
import { describeEachStorage } from '@fundi/adapters/testing';
import { WebClient, csrfOf } from '../testing/dashboard-client.js';
import { portalServers } from '../portal/portal-http-fixture.js';
import { logbookHelpers, type SubmittedEntry as Entry } from './logbook-fixture.js';

vi.setConfig({ testTimeout: 90_000 });

type Submitted = { data: Entry[]; submissions: { id: string; supervisorName: string; entryIds: string[] }[] };

describeEachStorage('logbook entries submitted together: one sign-off request and link per supervisor', (_g, kind) => {
  const t = portalServers(kind, 'lbs');
  const { world, entryBody, signOffLink, answer } = logbookHelpers(t);

  async function entry(w: { key: string }, learnerId: string, date: string, supervisor: string) {
    const r = await t.s.call('POST', '/api/v1/logbook-entries', w.key, {
      ...entryBody(learnerId, date, supervisor),
      activity: `Work of ${date}`,
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body.id as string;
  }

  it('submits a week at once in both forms, one link per supervisor, signed or queried together, events per entry', async () => {
    const { w, l } = await world();
    const rx = await t.s.receiver();
    const sub = await t.s.call('POST', '/api/v1/webhook-subscriptions', w.key, {
      url: rx.url,
      events: ['logbook.submitted', 'logbook.signed', 'logbook.queried'],
    });
    expect(sub.status, JSON.stringify(sub.body)).toBe(201);
    const boss = `wk${w.n}`;
    const other = `ot${w.n}`;
    const [mon, tue, wed] = [
      await entry(w, l.id, '2026-03-02', boss),
      await entry(w, l.id, '2026-03-03', boss),
      await entry(w, l.id, '2026-03-04', boss),
    ];
    const thu = await entry(w, l.id, '2026-03-05', other);
    const l2 = await t.learner(w, 2, { email: `lbs2-${w.n}@example.org` });
    await t.s.call('POST', '/api/v1/enrolments', w.key, {
      learnerId: l2.id,
      programmeCode: `P-LOG${w.n}`,
      startDate: '2026-01-10',
    });
    const foreign = await entry(w, l2.id, '2026-03-02', boss);

    // Refused whole: unknown ids (422 in Form A, 400 in Form B), two learners, a name given twice, nothing named.
    const unknown = await t.s.call('POST', '/api/v1/logbook-entries/submit', w.key, { ids: [mon, 'lbe_nope'] });
    expect(unknown.status).toBe(422);
    expect(JSON.stringify(unknown.body.error)).toContain('unknown logbook entry: lbe_nope');
    const formB = `/api/v1/tenants/${w.slug}/logbook-entries/submit`;
    expect((await t.s.call('POST', formB, w.key, { ids: [mon, 'lbe_nope'] })).status).toBe(400);
    expect((await t.s.call('POST', formB, w.key, { ids: [mon, foreign] })).status).toBe(400);
    expect((await t.s.call('POST', formB, w.key, { ids: [mon, mon] })).status).toBe(400);
    expect((await t.s.call('POST', formB, w.key, { ids: [] })).status).toBe(400);
    const still = await t.s.call('GET', `/api/v1/logbook-entries?learnerId=${l.id}&status=draft`, w.key);
    expect(still.body.data.length).toBe(4);

    const r = await t.s.call('POST', formB, w.key, { ids: [mon, thu, tue, wed] });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const body = r.body as Submitted;
    expect(body.data.map((e) => [e.id, e.status])).toEqual([
      [mon, 'submitted'],
      [thu, 'submitted'],
      [tue, 'submitted'],
      [wed, 'submitted'],
    ]);
    expect(body.submissions.map((s) => [s.supervisorName, s.entryIds])).toEqual([
      ['Sipho Khumalo', [mon, tue, wed]],
      ['Sipho Khumalo', [thu]],
    ]);
    expect(body.data[0]!.submissionId).toBe(body.submissions[0]!.id);
    expect(body.data[1]!.submissionId).toBe(body.submissions[1]!.id);

    // One mail per supervisor, whose page shows exactly the entries it signs.
    const week = await signOffLink(`${boss}@site.example`, 1);
    const page = (await new WebClient(t.s.url).get(week)).text;
    for (const d of ['2026-03-02', '2026-03-03', '2026-03-04']) expect(page).toContain(`Work of ${d}`);
    expect(page).not.toContain('Work of 2026-03-05');
    expect(page).toContain('3 days, 24 hours in all');
    expect(page.match(/name="hash"/g)?.length).toBe(3);
    const confirmed = await answer(week, 'confirmed');
    expect(confirmed.status, confirmed.text).toBe(200);
    expect((await answer(week, 'confirmed')).status).toBe(403);
    for (const id of [mon, tue, wed]) {
      const e = (await t.s.call('GET', `/api/v1/logbook-entries/${id}`, w.key)).body as Entry;
      expect(e.status).toBe('signed');
      expect(e.signOff).toMatchObject({ outcome: 'confirmed', by: 'Sipho Khumalo', comment: null });
      expect(e.signOff!.ip).toMatch(/127\.0\.0\.1/);
      expect(confirmed.page).toContain(e.signOff!.hash);
    }
    const hashes = await Promise.all(
      [mon, tue].map(
        async (id) => ((await t.s.call('GET', `/api/v1/logbook-entries/${id}`, w.key)).body as Entry).signOff!.hash,
      ),
    );
    expect(hashes[0]).not.toBe(hashes[1]);

    const single = await signOffLink(`${other}@site.example`, 1);
    expect((await answer(single, 'queried', 'Not on site that Thursday')).status).toBe(200);
    const q = (await t.s.call('GET', `/api/v1/logbook-entries/${thu}`, w.key)).body as Entry;
    expect([q.status, q.signOff?.comment]).toEqual(['queried', 'Not on site that Thursday']);
    // A signed entry in a submission refuses the whole of it.
    const again = await t.s.call('POST', '/api/v1/logbook-entries/submit', w.key, { ids: [thu, mon] });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toContain(`${mon} is signed`);
    expect(((await t.s.call('GET', `/api/v1/logbook-entries/${thu}`, w.key)).body as Entry).status).toBe('queried');
    // Only two sign-off mails went out for four entries.
    expect((await t.allMailsTo(`${boss}@site.example`)).length).toBe(1);
    expect((await t.allMailsTo(`${other}@site.example`)).length).toBe(1);

    const events = await t.until('the eight logbook events', async () => {
      const byId = new Map(rx.received.map((x) => [x.headers['x-webhook-id'], x.headers['x-webhook-event']]));
      return byId.size >= 8 ? [...byId.values()] : null;
    });
    const count = (type: string) => events.filter((e) => e === type).length;
    expect([count('logbook.submitted'), count('logbook.signed'), count('logbook.queried')]).toEqual([4, 3, 1]);
    await rx.close();
  });

  it('an entry changed while the page is open refuses the answer; the link then signs the rest', async () => {
    const { w, l } = await world();
    const sup = `ch${w.n}`;
    const a = await entry(w, l.id, '2026-04-06', sup);
    const b = await entry(w, l.id, '2026-04-07', sup);
    expect((await t.s.call('POST', '/api/v1/logbook-entries/submit', w.key, { ids: [a, b] })).status).toBe(200);
    const link = await signOffLink(`${sup}@site.example`, 1);
    const web = new WebClient(t.s.url);
    const page = await web.get(link);
    expect((await t.s.call('PATCH', `/api/v1/logbook-entries/${b}`, w.key, { hours: 4 })).status).toBe(200);
    const token = decodeURIComponent(/token=([^&]+)/.exec(link)![1]!);
    const stale = await web.post('/learn/sign-off', {
      _csrf: csrfOf(page.text),
      token,
      hash: [...page.text.matchAll(/name="hash" value="([^"]+)"/g)].map((m) => m[1]!),
      outcome: 'confirmed',
    });
    expect(stale.status).toBe(403);
    expect(((await t.s.call('GET', `/api/v1/logbook-entries/${a}`, w.key)).body as Entry).status).toBe('submitted');
    const rest = await answer(link, 'confirmed');
    expect(rest.status).toBe(200);
    expect(rest.page).toContain('Work of 2026-04-06');
    expect(rest.page).not.toContain('Work of 2026-04-07');
    const after = await Promise.all(
      [a, b].map(async (id) => ((await t.s.call('GET', `/api/v1/logbook-entries/${id}`, w.key)).body as Entry).status),
    );
    expect(after).toEqual(['signed', 'draft']);
  });
});
