import { beforeAll, describe, expect, it, vi } from 'vitest';
import { useCasesOf } from '@fundi/adapters';
import { describeEachStorage, type TestSmtpServer } from '@fundi/adapters/testing';
import { idNumberFor } from '@fundi/domain/testing';
import { FORMS, type FormUnderTest } from '../testing/http-forms.js';
import type { TestServer } from '../testing/test-server.js';
import { notificationServers } from './testing/notification-servers.js';
import { notificationsCapability, staff } from '../capabilities/index.js';
import { programmeBody } from '../testing/training-fixtures.js';

vi.setConfig({ testTimeout: 30_000 });

describeEachStorage('notifications over HTTP: triggers and opt-outs', (_get, kind) => {
  const h = notificationServers(kind, 'ntt');
  let s: TestServer;
  let smtp: TestSmtpServer;
  const clock = h.clock;
  let n = 0;
  beforeAll(() => {
    ({ s, smtp } = h.servers());
  });
  const world = async (form: FormUnderTest) => {
    const w = await h.world(form);
    n = w.n;
    return w;
  };
  const { until, mailTo, notificationsOf } = h;

  describe.each(FORMS.map((f) => [f.name, f] as const))('%s', (_name, form) => {
    it("welcomes a new learner by email with the tenant's own template, to the loopback SMTP server", async () => {
      const w = await world(form);
      const put = await s.call('PUT', `${w.prefix}/notification-templates/welcome`, w.key, {
        subject: 'Sawubona {{learner.firstName}}, welcome to {{organisation.name}}',
        html: '<h1>Hi {{learner.firstName}}</h1>',
        text: 'Hi {{learner.firstName}}',
      });
      expect(put.status, JSON.stringify(put.body)).toBe(200);
      expect(put.body.source).toBe('override');
      const email = `thandi.${kind}.${n}@example.org`;
      const l = await s.call('POST', form.learners(w.slug), w.key, {
        firstName: 'Thandi',
        lastName: 'Nkosi',
        idNumber: idNumberFor(7000 + n),
        email,
      });
      expect(l.status, JSON.stringify(l.body)).toBe(201);
      const mail = await mailTo(email);
      expect(mail.subject).toBe(`Sawubona Thandi, welcome to Tenant ${w.slug}`);
      expect(mail.html).toContain('<h1>Hi Thandi</h1>');
      expect(mail.text).toContain('Hi Thandi');
      expect(mail.headers.get('list-unsubscribe')).toMatch(
        /^<https:\/\/fundi\.example\/api\/v1\/notifications\/unsubscribe\/.+>$/,
      );
      expect(mail.headers.get('x-fundi-notification')).toMatch(/^ntf_/);
      const [sent] = await until('the sent status', async () => {
        const all = await notificationsOf(w, l.body.id);
        return all.length && all[0]!.status === 'sent' ? all : null;
      });
      expect(sent).toMatchObject({ channel: 'email', template: 'welcome', trigger: 'welcome', to: email, attempts: 1 });
      expect(sent!.history.map((h) => h.status)).toEqual(['queued', 'sent']);
    });

    it('one trigger event twice sends one message', async () => {
      const w = await world(form);
      const email = `twice.${kind}.${n}@example.org`;
      const l = await s.call('POST', form.learners(w.slug), w.key, {
        firstName: 'Twice',
        lastName: 'T',
        idNumber: idNumberFor(13_000 + n),
        email,
      });
      await until('the welcome', async () => (await notificationsOf(w, l.body.id)).length === 1);
      const triggers = useCasesOf(s.container, notificationsCapability).notificationTriggers;
      const payload = { tenantId: w.tenantId, eventId: 'evt_same', type: 'learner.created', data: { id: l.body.id } };
      await triggers.run.execute([payload]);
      await triggers.run.execute([payload]);
      expect((await notificationsOf(w, l.body.id)).length).toBe(2);
    });

    it('a job of many events makes its notifications in slices of 200, one transaction each', async () => {
      const w = await world(form);
      const l = await s.call('POST', form.learners(w.slug), w.key, {
        firstName: 'Many',
        lastName: 'M',
        idNumber: idNumberFor(14_000 + n),
        email: `many.${kind}.${n}@example.org`,
      });
      await until('the welcome', async () => (await notificationsOf(w, l.body.id)).length === 1);
      // The 450 notifications are made but skipped, not mailed: on a loaded machine 450 mails would hold up the
      // later tests' mails behind them.
      const optOut = await s.call('PATCH', `${form.learners(w.slug)}/${l.body.id}`, w.key, { emailOptOut: true });
      expect(optOut.status, JSON.stringify(optOut.body)).toBe(200);
      const u = useCasesOf(s.container, notificationsCapability);
      const create = vi.spyOn(u.notifications.create, 'execute');
      try {
        const events = Array.from({ length: 450 }, (_, i) => ({
          tenantId: w.tenantId,
          eventId: `evt_slice_${n}_${i}`,
          type: 'learner.created',
          data: { id: l.body.id },
        }));
        await u.notificationTriggers.run.execute(events);
        expect(create.mock.calls.map((c) => c[1].length)).toEqual([200, 200, 50]);
        const made = await Promise.all(create.mock.results.map((r) => r.value as Promise<unknown[]>));
        expect(made.map((m) => m.length)).toEqual([200, 200, 50]);
        // Run again (a retried job): every dedupe key exists, nothing new is made.
        create.mockClear();
        await u.notificationTriggers.run.execute(events);
        const again = await Promise.all(create.mock.results.map((r) => r.value as Promise<unknown[]>));
        expect(again.map((m) => m.length)).toEqual([0, 0, 0]);
      } finally {
        create.mockRestore();
      }
    });

    it('a revision asked for without feedback tells the learner to ask the assessor', async () => {
      const w = await world(form);
      const email = `revise.${kind}.${n}@example.org`;
      const l = await s.call('POST', form.learners(w.slug), w.key, {
        firstName: 'Revise',
        lastName: 'R',
        idNumber: idNumberFor(17_000 + n),
        email,
      });
      await until('the welcome', async () => (await notificationsOf(w, l.body.id)).length === 1);
      const triggers = useCasesOf(s.container, notificationsCapability).notificationTriggers;
      await triggers.run.execute([
        {
          tenantId: w.tenantId,
          eventId: `evt_revise_${n}`,
          type: 'evidence.reviewed',
          data: {
            evidenceId: 'evd_none',
            learnerId: l.body.id,
            moduleId: 'KM-01',
            status: 'revision_requested',
            feedback: null,
          },
        },
      ]);
      const mail = await until('the revision mail', async () => {
        const m = await mailTo(email);
        return m.subject.startsWith('Please revise') ? m : null;
      });
      expect(mail.text).toContain('No note was added: please ask your assessor what to change.');
    });

    it('deadline reminders go out three days before the expected end, once; a new API key alerts the admins', async () => {
      const w = await world(form);
      const admin = await useCasesOf(s.container, staff).createStaffUser.execute(w.slug, {
        email: `sec.${kind}.${n}@example.org`,
        name: 'Nomsa Khumalo',
        role: 'admin',
      });
      await s.key(w.slug, 'integration');
      const alert = await until('the security alert', async () =>
        (await smtp.received()).find((m) => m.to.includes(admin.user.email) && m.subject.startsWith('Security alert')),
      );
      expect(alert.subject).toBe(`Security alert for Tenant ${w.slug}`);
      expect(alert.text).toContain('(role integration) was created');

      const code = `P-NT${n}`;
      expect((await s.call('POST', `${w.prefix}/programmes`, w.key, programmeBody(code))).status).toBe(201);
      const email = `due.${kind}.${n}@example.org`;
      const l = await s.call('POST', form.learners(w.slug), w.key, {
        firstName: 'Due',
        lastName: 'Soon',
        idNumber: idNumberFor(15_000 + n),
        email,
      });
      const due = new Date(clock.now().getTime() + 3 * 86_400_000).toISOString().slice(0, 10);
      const e = await s.call('POST', `${w.prefix}/enrolments`, w.key, {
        learnerId: l.body.id,
        programmeCode: code,
        startDate: '2026-01-10',
        expectedEndDate: due,
      });
      expect(e.status, JSON.stringify(e.body)).toBe(201);
      const triggers = useCasesOf(s.container, notificationsCapability).notificationTriggers;
      expect(await triggers.remindDeadlines.execute()).toBeGreaterThanOrEqual(1);
      const mail = await until('the reminder', async () =>
        (await smtp.received()).find((m) => m.to.includes(email) && m.subject.startsWith('Reminder')),
      );
      expect(mail.subject).toBe(`Reminder: completing Programme ${code} is due on ${due}`);
      await triggers.remindDeadlines.execute();
      const mine = (await notificationsOf(w, l.body.id)).filter((x) => x.template === 'deadline_reminder');
      expect(mine).toHaveLength(1);
    });

    it('opt-outs: a learner who unsubscribed gets no email, the skip says why', async () => {
      const w = await world(form);
      const email = `optout.${kind}.${n}@example.org`;
      const l = await s.call('POST', form.learners(w.slug), w.key, {
        firstName: 'Opt',
        lastName: 'Out',
        idNumber: idNumberFor(16_000 + n),
        email,
      });
      const mail = await mailTo(email);
      const unsubscribe = /<https:\/\/fundi\.example(\/api\/v1\/notifications\/unsubscribe\/[^>]+)>/.exec(
        mail.headers.get('list-unsubscribe') ?? '',
      );
      expect(unsubscribe).not.toBeNull();
      const page = await fetch(s.url + unsubscribe![1]!);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<form method="post">');
      const one = await fetch(s.url + unsubscribe![1]!, { method: 'POST', body: 'List-Unsubscribe=One-Click' });
      expect(one.status).toBe(200);
      const learner = await s.call('GET', `${form.learners(w.slug)}/${l.body.id}`, w.key);
      expect(learner.body.emailOptOut).toBe(true);
      const r = await s.call('POST', `${w.prefix}/notifications`, w.key, {
        learnerId: l.body.id,
        channel: 'email',
        template: 'evidence_approved',
        variables: { 'evidence.type': 'logbook', 'module.name': 'Safety' },
      });
      expect(r.status).toBe(202);
      expect(r.body.status).toBe('skipped');
      expect(r.body.history[0].detail).toBe('the learner opted out of email');
      const forged = await fetch(`${s.url}/api/v1/notifications/unsubscribe/${'x'.repeat(20)}.${'y'.repeat(43)}`, {
        method: 'POST',
      });
      expect(forged.status).toBe(403);
    });
  });
});
