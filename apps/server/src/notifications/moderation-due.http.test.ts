import { beforeAll, describe, expect, it, vi } from 'vitest';
import { T, useCasesOf } from '@fundi/adapters';
import type { PlatformRepos } from '@fundi/domain';
import { describeEachStorage, type TestSmtpServer } from '@fundi/adapters/testing';
import { idNumberFor } from '@fundi/domain/testing';
import { FORMS, type FormUnderTest } from '../testing/http-forms.js';
import type { TestServer } from '../testing/test-server.js';
import { notificationServers } from './testing/notification-servers.js';
import { notificationsCapability } from '../capabilities/index.js';
import { assessmentBody, programmeBody } from '../testing/training-fixtures.js';

vi.setConfig({ testTimeout: 30_000 });

/**
 * The `moderation_due` trigger end to end: drawing a sample (`POST /moderation/samples`) reaches every active
 * moderator who wants it, by email to the loopback SMTP server, once per moderator.
 */
describeEachStorage('moderation_due over HTTP: a drawn sample tells the moderators', (_get, kind) => {
  const h = notificationServers(kind, 'mdd');
  let s: TestServer;
  let smtp: TestSmtpServer;
  beforeAll(() => {
    ({ s, smtp } = h.servers());
  });
  const { until, notificationsOf } = h;
  /** The `moderation_due` mail to an address (staff users get their invitation first). */
  const dueMailTo = (address: string) =>
    until(`moderation_due mail to ${address}`, async () =>
      (await smtp.received()).find((m) => m.to.includes(address) && m.subject.startsWith('Moderation due')),
    );

  async function staffUser(w: { prefix: string; key: string }, body: Record<string, unknown>): Promise<string> {
    const r = await s.call('POST', `${w.prefix}/users`, w.key, body);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body.id as string;
  }

  /** A tenant with a programme, three summative assessments, and its staff: moderators and an assessor. */
  async function world(form: FormUnderTest) {
    const w = await h.world(form);
    const at = (who: string) => `${who}.${kind}.${w.n}@example.org`;
    const users = {
      moderator: await staffUser(w, { name: 'Lindiwe Mokoena', email: at('mod'), role: 'moderator' }),
      quiet: await staffUser(w, {
        name: 'Quiet Moderator',
        email: at('quiet'),
        role: 'moderator',
        notificationPreferences: { moderation_due: false },
      }),
      gone: await staffUser(w, { name: 'Gone Moderator', email: at('gone'), role: 'moderator' }),
      assessor: await staffUser(w, { name: 'Sipho Assessor', email: at('assessor'), role: 'assessor' }),
    };
    expect((await s.call('POST', `${w.prefix}/users/${users.gone}/deactivate`, w.key)).status).toBe(200);
    const code = `MD-${w.n}`;
    expect((await s.call('POST', `${w.prefix}/programmes`, w.key, programmeBody(code))).status).toBe(201);
    const l = await s.call('POST', form.learners(w.slug), w.key, {
      firstName: 'Thandi',
      lastName: 'Nkosi',
      idNumber: idNumberFor(21_000 + w.n),
    });
    expect(l.status).toBe(201);
    const e = await s.call('POST', `${w.prefix}/enrolments`, w.key, {
      learnerId: l.body.id,
      programmeCode: code,
      startDate: '2026-01-10',
    });
    expect(e.status).toBe(201);
    for (const m of ['KM-01', 'PM-01', 'WM-01'])
      expect((await s.call('POST', `${w.prefix}/assessments`, w.key, assessmentBody(l.body.id, m))).status).toBe(201);
    const moderatorKey = (await s.key(w.slug, 'moderator')).key;
    return { ...w, at, users, code, moderatorKey };
  }

  const dueOf = async (w: { prefix: string; key: string }, id: string) =>
    (await notificationsOf(w, id)).filter((x) => x.template === 'moderation_due');

  describe.each(FORMS.map((f) => [f.name, f] as const))('%s', (_name, form) => {
    it('emails every active moderator who wants it, once; not the others', async () => {
      const w = await world(form);
      const drawn = await s.call('POST', `${w.prefix}/moderation/samples`, w.moderatorKey, {
        programmeCode: w.code,
        percent: 50,
        dueBy: '2026-06-20',
      });
      expect(drawn.status, JSON.stringify(drawn.body)).toBe(201);
      expect(drawn.body.assessmentIds).toHaveLength(2);

      const mail = await dueMailTo(w.at('mod'));
      expect(mail.subject).toBe(`Moderation due for Programme ${w.code} by 2026-06-20`);
      expect(mail.text).toContain('Hi Lindiwe,');
      expect(mail.text).toContain('Assessments in the sample: 2.');
      expect(mail.html).toContain('https://fundi.example/dashboard/');
      const [sent] = await until('the sent status', async () => {
        const all = await dueOf(w, w.users.moderator);
        return all.length && all[0]!.status === 'sent' ? all : null;
      });
      expect(sent).toMatchObject({
        recipientType: 'user',
        channel: 'email',
        trigger: 'moderation_due',
        to: w.at('mod'),
      });

      // The event handled again (a repeated job) sends nothing new.
      const repos = s.container.get(T.Repositories) as Pick<PlatformRepos, 'outbox'>;
      const [event] = (await repos.outbox.list(w.tenantId, { types: ['moderation.sample_drawn'], limit: 10 })).filter(
        (e) => e.data.sampleId === drawn.body.id,
      );
      const triggers = useCasesOf(s.container, notificationsCapability).notificationTriggers;
      const payload = {
        tenantId: w.tenantId,
        eventId: event!.id,
        type: 'moderation.sample_drawn',
        data: { sampleId: drawn.body.id, programmeId: drawn.body.programmeId, programmeCode: w.code, count: 2 },
      };
      await triggers.run.execute([{ ...payload, data: { ...payload.data, dueBy: '2026-06-20' } }]);
      expect(await dueOf(w, w.users.moderator)).toHaveLength(1);

      for (const other of [w.users.quiet, w.users.gone, w.users.assessor])
        expect(await dueOf(w, other), other).toEqual([]);
      const received = (await smtp.received()).filter((m) => m.subject.startsWith('Moderation due'));
      for (const who of ['quiet', 'gone', 'assessor'])
        expect(received.filter((m) => m.to.includes(w.at(who)))).toEqual([]);
    });

    it('the tenant switch turns it off; an empty sample tells nobody', async () => {
      const w = await world(form);
      const triggers = useCasesOf(s.container, notificationsCapability).notificationTriggers;
      const event = (n: number, count: number) => ({
        tenantId: w.tenantId,
        eventId: `evt_moderation_due_${kind}_${w.n}_${n}`,
        type: 'moderation.sample_drawn',
        data: { sampleId: 'smp_x', programmeId: 'prg_x', programmeCode: w.code, count, dueBy: '2026-06-20' },
      });
      await triggers.run.execute([event(1, 0)]);
      expect(await dueOf(w, w.users.moderator)).toEqual([]);
      const off = await s.call('PUT', `${w.prefix}/notification-settings`, w.key, {
        triggers: { moderation_due: false },
      });
      expect(off.status, JSON.stringify(off.body)).toBe(200);
      await triggers.run.execute([event(2, 3)]);
      expect(await dueOf(w, w.users.moderator)).toEqual([]);
      await s.call('PUT', `${w.prefix}/notification-settings`, w.key, { triggers: { moderation_due: true } });
      await triggers.run.execute([event(3, 3)]);
      const [made] = await dueOf(w, w.users.moderator);
      expect(made).toMatchObject({ template: 'moderation_due', to: w.at('mod') });
      const mail = await dueMailTo(w.at('mod'));
      expect(mail.subject).toBe(`Moderation due for ${w.code} by 2026-06-20`);
    });
  });
});
