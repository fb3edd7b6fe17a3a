import { expect, it, vi } from 'vitest';
import { describeEachStorage } from '@fundi/adapters/testing';
import { WebClient, csrfOf } from '../testing/dashboard-client.js';
import { portalServers } from '../portal/portal-http-fixture.js';
import { logbookHelpers, workplaceProgramme } from './logbook-fixture.js';

vi.setConfig({ testTimeout: 90_000 });

type Entry = {
  id: string;
  status: string;
  submissionId: string | null;
  signOff: { outcome: string; by: string; comment: string | null; ip: string; hash: string } | null;
};
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

describeEachStorage('the learner portal sends any number of unsigned entries: 50 a link at most', (_g, kind) => {
  const t = portalServers(kind, 'lbm');
  const { entryBody, signOffLink, answer } = logbookHelpers(t);

  /** A learner signed in to the portal, enrolled in a programme whose WM-01 is a workplace module. */
  async function portalLearner() {
    const w = await t.world();
    const code = `P-MANY${w.n}`;
    expect((await t.s.call('POST', '/api/v1/programmes', w.key, workplaceProgramme(code))).status).toBe(201);
    const a = await t.signedIn(w, 1);
    const e = await t.s.call('POST', '/api/v1/enrolments', w.key, {
      learnerId: a.id,
      programmeCode: code,
      startDate: '2026-01-10',
    });
    expect(e.status, JSON.stringify(e.body)).toBe(201);
    return { w, a };
  }

  async function entry(key: string, learnerId: string, date: string, supervisor: string, hours = 8) {
    const r = await t.s.call('POST', '/api/v1/logbook-entries', key, {
      ...entryBody(learnerId, date, supervisor),
      hours,
      activity: `Work of ${date}`,
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body.id as string;
  }

  const entriesOf = async (key: string, learnerId: string) =>
    (await t.s.call('GET', `/api/v1/logbook-entries?learnerId=${learnerId}&limit=100`, key)).body.data as (Entry & {
      date: string;
    })[];

  /** Every link mailed to `address` once `count` have come, each with the number of entries its page shows. */
  async function linksTo(address: string, count: number) {
    await signOffLink(address, count);
    const mails = await t.allMailsTo(address);
    expect(mails.length).toBe(count);
    return Promise.all(
      mails.map(async (m) => {
        const path = /https:\/\/fundi\.example(\/learn\/sign-off\?token=[\w%.-]+)/.exec(m.text)![1]!;
        const page = (await new WebClient(t.s.url).get(path)).text;
        return { path, page, shown: page.match(/name="hash"/g)?.length ?? 0 };
      }),
    );
  }

  it("the module's button sends 53 drafts as three requests (50 and 1 to one supervisor, 2 to another), all signed", async () => {
    const { w, a } = await portalLearner();
    const [boss, other, third] = [`many${w.n}`, `few${w.n}`, `done${w.n}`];
    const day = (i: number) => new Date(Date.UTC(2026, 0, 12 + i)).toISOString().slice(0, 10);
    // The boss's 51 days are logged last day first, so creation order is not date order.
    const bossIds: string[] = [];
    for (let i = 50; i >= 0; i--) bossIds.push(await entry(w.key, a.id, day(i), boss));
    const otherIds = [await entry(w.key, a.id, '2026-05-04', other), await entry(w.key, a.id, '2026-05-05', other)];
    // Already waiting for its supervisor: not sent again.
    const waiting = await entry(w.key, a.id, '2026-05-06', third);
    const first = await t.s.call('POST', `/api/v1/logbook-entries/${waiting}/submit`, w.key);
    expect(first.status).toBe(200);

    // The API keeps its 50 for integrators, and refuses 51 whole.
    const tooMany = await t.s.call('POST', '/api/v1/logbook-entries/submit', w.key, { ids: bossIds });
    expect(tooMany.status).toBe(422);
    expect(JSON.stringify(tooMany.body.error)).toContain('ids');
    expect((await entriesOf(w.key, a.id)).filter((e) => e.status === 'draft')).toHaveLength(53);

    // The logbook page lists a module's latest 20 days; all 54 are a link away, 50 a page, in date order.
    const logbook = await a.web.get('/learn/logbook');
    expect(logbook.text).toContain('Work of 2026-05-05');
    expect(logbook.text).toContain(`Work of ${day(34)}`);
    expect(logbook.text).not.toContain(`Work of ${day(33)}<`);
    expect(logbook.text).toContain('The latest 20 of 54 entries.');
    expect(logbook.text).toContain('href="/learn/logbook?module=WM-01"');
    const pageOne = await a.web.get('/learn/logbook?module=WM-01');
    expect(pageOne.status).toBe(200);
    expect(pageOne.text).toContain('Page 1 of 2');
    expect(pageOne.text.match(/<li>/g)).toHaveLength(50);
    expect(pageOne.text.indexOf(`Work of ${day(0)}<`)).toBeLessThan(pageOne.text.indexOf(`Work of ${day(49)}<`));
    expect(pageOne.text).not.toContain(`Work of ${day(50)}<`);
    expect(pageOne.text).toContain('href="/learn/logbook?module=WM-01&amp;page=2"');
    const pageTwo = await a.web.get('/learn/logbook?module=WM-01&page=2');
    expect(pageTwo.text).toContain('Page 2 of 2');
    expect(pageTwo.text.match(/<li>/g)).toHaveLength(4);
    expect(pageTwo.text).toContain(`Work of ${day(50)}<`);
    expect(pageTwo.text).toContain('href="/learn/logbook?module=WM-01&amp;page=1"');
    expect((await a.web.get('/learn/logbook?module=WM-01&page=9')).text).toContain('Page 2 of 2');
    const unknown = await a.web.get('/learn/logbook?module=KM-99');
    expect(unknown.status).toBe(404);
    expect(unknown.text).toContain('Your programmes have no workplace module with that code.');
    const sent = await a.web.post('/learn/logbook/submit', { _csrf: csrfOf(logbook.text), moduleCode: 'WM-01' });
    expect(sent.status, sent.text).toBe(303);
    expect(sent.headers.get('location')).toBe('/learn/logbook?done=sent&entries=53&links=3');
    const after = await a.web.get(sent.headers.get('location')!);
    expect(after.text).toContain(
      'Sent 53 entries: 3 links to sign go out, one per supervisor and at most 50 entries each.',
    );

    const all = await entriesOf(w.key, a.id);
    expect(all.map((e) => e.status)).toEqual(Array(54).fill('submitted'));
    expect(all.find((e) => e.id === waiting)!.submissionId).toBe((first.body as Entry).submissionId);
    // The boss's first 50 days share one request, the 51st day has its own; the other supervisor's two share one.
    const requestOf = (id: string) => all.find((e) => e.id === id)!.submissionId;
    const byDay = [...bossIds].reverse();
    expect(new Set(byDay.slice(0, 50).map(requestOf)).size).toBe(1);
    expect(requestOf(byDay[50]!)).not.toBe(requestOf(byDay[0]!));
    expect(requestOf(otherIds[0]!)).toBe(requestOf(otherIds[1]!));
    expect(new Set(all.map((e) => e.submissionId)).size).toBe(4);

    // One message per request: two to the boss, one to the other supervisor; each link shows exactly its entries.
    const bossLinks = await linksTo(`${boss}@site.example`, 2);
    expect(bossLinks.map((l) => l.shown).sort((x, y) => x - y)).toEqual([1, 50]);
    const big = bossLinks.find((l) => l.shown === 50)!;
    expect(big.page).toContain('50 days, 400 hours in all');
    expect(big.page).toContain(`Work of ${day(0)}`);
    expect(big.page).toContain(`Work of ${day(49)}`);
    expect(big.page).not.toContain(`Work of ${day(50)}`);
    expect(bossLinks.find((l) => l.shown === 1)!.page).toContain(`Work of ${day(50)}`);
    const otherLinks = await linksTo(`${other}@site.example`, 1);
    expect(otherLinks[0]!.shown).toBe(2);
    for (const l of [...bossLinks, ...otherLinks]) expect((await answer(l.path, 'confirmed')).status).toBe(200);
    const signed = await entriesOf(w.key, a.id);
    expect(signed.filter((e) => e.status === 'signed')).toHaveLength(53);
    expect(signed.find((e) => e.id === waiting)!.status).toBe('submitted');
    expect((await t.allMailsTo(`${boss}@site.example`)).length).toBe(2);
    expect((await t.allMailsTo(`${other}@site.example`)).length).toBe(1);
    expect((await t.allMailsTo(`${third}@site.example`)).length).toBe(1);
    // Nothing left to send: the button answers not found and changes nothing.
    const none = await a.web.post('/learn/logbook/submit', { _csrf: csrfOf(logbook.text), moduleCode: 'WM-01' });
    expect(none.status).toBe(404);
  });

  it("a week's button sends 52 entries of one week (several a day): two requests to the one supervisor", async () => {
    const { w, a } = await portalLearner();
    const sup = `week${w.n}`;
    const ids: string[] = [];
    for (let i = 0; i < 52; i++) ids.push(await entry(w.key, a.id, `2026-03-0${2 + (i % 7)}`, sup, 1));
    const outside = await entry(w.key, a.id, '2026-03-09', sup);
    const logbook = await a.web.get('/learn/logbook');
    expect(logbook.text).toContain('Submit the week 2026-03-02 to 2026-03-08 (52 entries)');
    const sent = await a.web.post('/learn/logbook/submit-week', { _csrf: csrfOf(logbook.text), week: '2026-03-04' });
    expect(sent.status, sent.text).toBe(303);
    expect(sent.headers.get('location')).toBe('/learn/logbook?done=sent&entries=52&links=2');
    const all = await entriesOf(w.key, a.id);
    expect(all.filter((e) => ids.includes(e.id)).map((e) => e.status)).toEqual(Array(52).fill('submitted'));
    expect(all.find((e) => e.id === outside)!.status).toBe('draft');
    expect(new Set(all.filter((e) => ids.includes(e.id)).map((e) => e.submissionId)).size).toBe(2);
    const links = await linksTo(`${sup}@site.example`, 2);
    expect(links.map((l) => l.shown).sort((x, y) => x - y)).toEqual([2, 50]);
  });
});
