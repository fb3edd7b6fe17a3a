import { expect, it, vi } from 'vitest';
import { describeEachStorage } from '@fundi/adapters/testing';
import { WebClient, csrfOf } from '../testing/dashboard-client.js';
import { portalServers } from '../portal/portal-http-fixture.js';
import { logbookHelpers, workplaceProgramme, type SubmittedEntry as Entry } from './logbook-fixture.js';

vi.setConfig({ testTimeout: 90_000 });

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
