import { expect, it, vi } from 'vitest';
import { describeEachStorage } from '@fundi/adapters/testing';
import { WebClient } from '../testing/dashboard-client.js';
import { parse } from 'csv-parse/sync';
import { TokenSigner } from '@fundi/adapters';
import { RETRY_DELAYS_MS } from '@fundi/domain/webhooks';
import { TEST_MASTER_KEY } from '../testing/test-server.js';
import { portalServers } from '../portal/portal-http-fixture.js';
import { logbookHelpers } from './logbook-fixture.js';
import { unzip } from '../testing/unzip.js';

vi.setConfig({ testTimeout: 60_000 });

type Entry = {
  id: string;
  status: string;
  hours: number;
  date: string;
  activity: string;
  signedAt: string | null;
  submissionId: string | null;
  signOff: { outcome: string; by: string; comment: string | null; ip: string; [field: string]: unknown };
};

describeEachStorage('logbooks over HTTP: entries, supervisor sign-off by signed link, hours', (_get, kind) => {
  const t = portalServers(kind, 'lgb');
  /** A full ZIP export of the tenant whose admin key is `key`, made and downloaded: its files by name. */
  const fullExport = async (key: string) => {
    const q = await t.s.call('POST', '/api/v1/exports', key, { type: 'full' });
    expect(q.status, JSON.stringify(q.body)).toBe(202);
    await t.until('the export', async () => {
      const r = await t.s.call('GET', `/api/v1/exports/${q.body.id}`, key);
      return r.body.status === 'ready';
    });
    const url = (await t.s.call('GET', `/api/v1/exports/${q.body.id}/download`, key)).body.url as string;
    return unzip(Buffer.from(await (await fetch(url)).arrayBuffer()));
  };

  const { world, entryBody, signOffLink, answer } = logbookHelpers(t);

  it('records entries in both forms, refuses other modules and bad hours, and signs off by the mailed link once', async () => {
    const { w, l } = await world();
    const a = await t.s.call('POST', '/api/v1/logbook-entries', w.key, entryBody(l.id, '2026-03-02'));
    expect(a.status, JSON.stringify(a.body)).toBe(201);
    expect(a.body.status).toBe('draft');
    const b = await t.s.call('POST', `/api/v1/tenants/${w.slug}/logbook-entries`, w.key, entryBody(l.id, '2026-03-03'));
    expect(b.status, JSON.stringify(b.body)).toBe(201);
    const km = await t.s.call('POST', '/api/v1/logbook-entries', w.key, {
      ...entryBody(l.id, '2026-03-04'),
      moduleCode: 'KM-01',
    });
    expect(km.status).toBe(422);
    const bad = await t.s.call('POST', `/api/v1/tenants/${w.slug}/logbook-entries`, w.key, {
      ...entryBody(l.id, '2026-03-04'),
      hours: 25,
    });
    expect(bad.status).toBe(400);
    const list = await t.s.call('GET', `/api/v1/logbook-entries?learnerId=${l.id}`, w.key);
    expect((list.body.data as Entry[]).map((e) => e.id)).toEqual([a.body.id, b.body.id]);

    const sub = await t.s.call('POST', `/api/v1/logbook-entries/${a.body.id}/submit`, w.key);
    expect(sub.status, JSON.stringify(sub.body)).toBe(200);
    expect(sub.body.status).toBe('submitted');
    const link = await signOffLink('boss@site.example', 1);
    const page = await new WebClient(t.s.url).get(link);
    expect(page.text).toContain('Installed conduit on the second floor');
    expect(page.text).toContain('Lerato1 Mokoena');
    const altered = link.replace(/token=(.)/, (_m, c: string) => `token=${c === 'A' ? 'B' : 'A'}`);
    expect((await answer(altered, 'confirmed')).status).toBe(403);
    expect((await answer(link, 'confirmed')).status).toBe(200);
    expect((await answer(link, 'confirmed')).status).toBe(403);

    const signed = (await t.s.call('GET', `/api/v1/logbook-entries/${a.body.id}`, w.key)).body as Entry;
    expect(signed.status).toBe('signed');
    expect(signed.signedAt).not.toBeNull();
    expect(signed.signOff).toMatchObject({ outcome: 'confirmed', by: 'Sipho Khumalo', comment: null });
    expect(signed.signOff.ip).toMatch(/127\.0\.0\.1/);
    expect(signed.signOff.hash).toMatch(/^[0-9a-f]{64}$/);
    // Frozen once signed.
    expect((await t.s.call('PATCH', `/api/v1/logbook-entries/${a.body.id}`, w.key, { hours: 9 })).status).toBe(409);
    expect((await t.s.call('DELETE', `/api/v1/logbook-entries/${a.body.id}`, w.key)).status).toBe(409);

    // The entries' history is the learner's: created (twice), submitted, signed, in the learner's history.
    const history = await t.s.call('GET', `/api/v1/learners/${l.id}/history?entityType=logbook_entry`, w.key);
    expect(history.status, JSON.stringify(history.body)).toBe(200);
    const acts = (history.body.data as { action: string; entityId: string; origin: { via: string } }[]).map((x) => [
      x.action,
      x.entityId,
      x.origin.via,
    ]);
    expect(acts).toEqual([
      ['logbook.signed', a.body.id, 'worker'],
      ['logbook.submitted', a.body.id, 'api'],
      ['logbook.created', b.body.id, 'api'],
      ['logbook.created', a.body.id, 'api'],
    ]);
    const hours = await t.s.call('GET', `/api/v1/learners/${l.id}/logbook-hours`, w.key);
    expect(hours.body.data).toEqual([{ moduleCode: 'WM-01', logged: 16, signed: 8, required: 16, ready: false }]);

    // The full ZIP export carries the entries and their sign-off.
    const files = await fullExport(w.key);
    const rows = parse(files.get('logbook-entries.csv')!, { bom: true, columns: true }) as Record<string, string>[];
    expect(rows.map((r) => [r.id, r.status, r.hours, r.submission_id, r.sign_off_hash])).toEqual([
      [a.body.id, 'signed', '8', signed.submissionId, signed.signOff.hash],
      [b.body.id, 'draft', '8', '', ''],
    ]);
    expect(signed.submissionId).toMatch(/^lbs_/);
  });

  it('a queried entry goes back to the learner; an edit voids the old link; an expired link is refused', async () => {
    const { w, l } = await world();
    // Every logbook event reaches a subscriber, each payload checked against the OpenAPI document's webhooks.
    const rx = await t.s.receiver();
    const subscribed = await t.s.call('POST', '/api/v1/webhook-subscriptions', w.key, {
      url: rx.url,
      events: ['logbook.submitted', 'logbook.signed', 'logbook.queried'],
    });
    expect(subscribed.status, JSON.stringify(subscribed.body)).toBe(201);
    const a = await t.s.call('POST', '/api/v1/logbook-entries', w.key, entryBody(l.id, '2026-03-02', 'q'));
    await t.s.call('POST', `/api/v1/logbook-entries/${a.body.id}/submit`, w.key);
    const first = await signOffLink('q@site.example', 1);
    expect((await answer(first, 'queried')).status).toBe(400);
    expect((await answer(first, 'queried', 'I was on leave that day')).status).toBe(200);
    const queried = (await t.s.call('GET', `/api/v1/logbook-entries/${a.body.id}`, w.key)).body as Entry;
    expect([queried.status, queried.signOff.comment]).toEqual(['queried', 'I was on leave that day']);

    const edited = await t.s.call('PATCH', `/api/v1/logbook-entries/${a.body.id}`, w.key, { date: '2026-03-05' });
    expect(edited.body.status).toBe('draft');
    t.clock.advance(60_000);
    await t.s.call('POST', `/api/v1/logbook-entries/${a.body.id}/submit`, w.key);
    const second = await signOffLink('q@site.example', 2);
    expect(second).not.toBe(first);
    expect((await answer(first, 'confirmed')).status).toBe(403);
    // The same entry and submission, signed with the server's key, but past its end: refused.
    const now = (await t.s.call('GET', `/api/v1/logbook-entries/${a.body.id}`, w.key)).body as Entry & {
      submittedAt: string;
    };
    const expired = new TokenSigner(TEST_MASTER_KEY).sign(
      `${w.tenantId}|${a.body.id}|${now.submittedAt}|${t.clock.now().getTime() - 1}`,
      'logbook-sign-off',
    );
    expect((await answer(`/learn/sign-off?token=${encodeURIComponent(expired)}`, 'confirmed')).status).toBe(403);
    expect((await answer(second, 'confirmed')).status).toBe(200);
    // Delivery is at least once and in no promised order: one of each event, by its id. A first attempt that failed
    // on a loaded machine (a kept-alive connection the receiver had just closed, say) is tried again after the first
    // retry delay of the server's clock, which this suite holds still: after 2 s without all four, it is moved on.
    let movedAt = Date.now();
    const events = await t.until('the four logbook events', async () => {
      const byId = new Map(rx.received.map((r) => [r.headers['x-webhook-id'], r.headers['x-webhook-event']]));
      if (byId.size >= 4) return [...byId.values()];
      if (Date.now() - movedAt > 2000) {
        t.clock.advance(RETRY_DELAYS_MS[0]! + 1000);
        movedAt = Date.now();
      }
      return null;
    });
    expect(events.sort()).toEqual(['logbook.queried', 'logbook.signed', 'logbook.submitted', 'logbook.submitted']);
    await rx.close();
  });

  it('sends the link by WhatsApp to a supervisor with only a mobile number, and it signs the entry', async () => {
    const { w, l } = await world();
    const put = await t.s.call('PUT', '/api/v1/notification-settings', w.key, {
      whatsapp: {
        phoneNumberId: `${300000 + w.n}`,
        accessToken: 'EAAG-test-token-123',
        appSecret: 'test-app-secret-123',
        baseUrl: t.cloud.baseUrl,
        verifyToken: 'verify-me-please',
      },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const mobile = `+2782555${String(3000 + w.n).slice(-4)}`;
    const a = await t.s.call('POST', '/api/v1/logbook-entries', w.key, {
      ...entryBody(l.id, '2026-03-02'),
      supervisor: { name: 'Sipho Khumalo', mobile },
    });
    expect(a.status, JSON.stringify(a.body)).toBe(201);
    expect((await t.s.call('POST', `/api/v1/logbook-entries/${a.body.id}/submit`, w.key)).status).toBe(200);
    const params = await t.until('the WhatsApp sign-off message', async () => {
      const r = t.cloud.requests.find((x) => x.body.to === mobile && x.body.template?.name === 'logbook_sign_off');
      if (!r) return undefined;
      return r.body.template.components[0]!.parameters.map((p: { text: string }) => p.text) as string[];
    });
    expect(params.slice(0, 2)).toEqual(['Sipho', 'Lerato1 Mokoena']);
    const link = /^https:\/\/fundi\.example(\/learn\/sign-off\?token=[\w%.-]+)$/.exec(params[2]!);
    expect(link, params[2]).not.toBeNull();
    // No mail went anywhere for it: the supervisor has no address.
    expect((await t.allMailsTo(mobile)).length).toBe(0);
    expect((await answer(link![1]!, 'confirmed')).status).toBe(200);
    const signed = (await t.s.call('GET', `/api/v1/logbook-entries/${a.body.id}`, w.key)).body as Entry;
    expect(signed.status).toBe('signed');
    expect(signed.signOff.by).toBe('Sipho Khumalo');
  });

  it("erasure removes the personal text of the learner's entries and keeps the hours, in the API and the export", async () => {
    const { w, l } = await world();
    const a = await t.s.call('POST', '/api/v1/logbook-entries', w.key, entryBody(l.id, '2026-03-02', 'erase'));
    expect(a.status).toBe(201);
    const b = await t.s.call('POST', '/api/v1/logbook-entries', w.key, entryBody(l.id, '2026-03-03', 'erase'));
    const c = await t.s.call('POST', '/api/v1/logbook-entries', w.key, entryBody(l.id, '2026-03-04', 'erase-q'));
    expect((await t.s.call('POST', '/api/v1/logbook-entries/submit', w.key, { ids: [a.body.id] })).status).toBe(200);
    expect((await answer(await signOffLink('erase@site.example', 1), 'confirmed')).status).toBe(200);
    expect((await t.s.call('POST', `/api/v1/logbook-entries/${c.body.id}/submit`, w.key)).status).toBe(200);
    const queried = await answer(await signOffLink('erase-q@site.example', 1), 'queried', 'Lerato1 was at home');
    expect(queried.status).toBe(200);
    const before = await Promise.all(
      [a, b, c].map(async (x) => (await t.s.call('GET', `/api/v1/logbook-entries/${x.body.id}`, w.key)).body as Entry),
    );
    expect(before.map((e) => e.status)).toEqual(['signed', 'draft', 'queried']);

    expect((await t.s.call('DELETE', `/api/v1/learners/${l.id}`, w.key)).status).toBe(204);
    const after = await t.until('the entries erased', async () => {
      const all = await Promise.all(
        [a, b, c].map(
          async (x) => (await t.s.call('GET', `/api/v1/logbook-entries/${x.body.id}`, w.key)).body as Entry,
        ),
      );
      return all.every((e) => e.activity === '') ? all : null;
    });
    expect(after[1]).toMatchObject({
      hours: 8,
      date: '2026-03-03',
      status: 'draft',
      workplace: '',
      supervisor: { name: '', email: null, mobile: null },
      signOff: null,
    });
    for (const i of [0, 2]) {
      const [was, now] = [before[i]!, after[i]!];
      expect(now).toMatchObject({
        hours: 8,
        date: was.date,
        status: was.status,
        signedAt: was.signedAt,
        submissionId: was.submissionId,
        workplace: '',
        supervisor: { name: '', email: null, mobile: null },
      });
      expect(now.signOff).toEqual({ ...was.signOff, by: '', ip: '', comment: null });
    }

    // A full export made afterwards: hours, statuses, requests and hashes; no name, text, address or comment.
    const files = await fullExport(w.key);
    const csv = files.get('logbook-entries.csv')!.toString('utf8');
    for (const personal of ['Lerato1', 'Mokoena', 'Installed conduit', 'Ubuntu Electrical', 'Sipho', '@site.example'])
      expect(csv).not.toContain(personal);
    expect(csv).not.toContain('127.0.0.1');
    const rows = parse(csv, { bom: true, columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(3);
    for (const [i, r] of rows.entries()) {
      const was = before[i]!;
      expect(r).toMatchObject({
        id: was.id,
        // The learner is gone for every file of the export, as in enrolments.csv ("Erasure").
        learner_id: '',
        id_number: '',
        first_name: '',
        last_name: '',
        hours: '8',
        status: was.status,
        activity: '',
        workplace: '',
        supervisor_name: '',
        supervisor_email: '',
        supervisor_mobile: '',
        submission_id: was.submissionId ?? '',
        sign_off_outcome: was.signOff?.outcome ?? '',
        sign_off_by: '',
        sign_off_ip: '',
        sign_off_hash: (was.signOff?.hash as string | undefined) ?? '',
        sign_off_comment: '',
      });
    }
  });
});
