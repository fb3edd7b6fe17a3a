import { beforeAll, describe, expect, it, vi } from 'vitest';
import { useCasesOf } from '@fundi/adapters';
import { describeEachStorage, type TestCloudApi, type TestSmtpServer } from '@fundi/adapters/testing';
import { idNumberFor } from '@fundi/domain/testing';
import { FORMS, type FormUnderTest } from '../testing/http-forms.js';
import type { TestServer } from '../testing/test-server.js';
import { notificationServers } from './testing/notification-servers.js';
import { emailCallbackSignature } from '@fundi/application';
import { whatsAppSignature } from '@fundi/domain';
import { exportsCapability, staff } from '../capabilities/index.js';
import { assessmentBody, programmeBody } from '../testing/training-fixtures.js';

const APP_SECRET = 'test-app-secret-123';

vi.setConfig({ testTimeout: 30_000 });

describeEachStorage('notifications over HTTP: sending, templates, settings, callbacks', (_get, kind) => {
  const h = notificationServers(kind, 'ntf');
  let s: TestServer;
  let smtp: TestSmtpServer;
  let cloud: TestCloudApi;
  const clock = h.clock;
  let n = 0;
  beforeAll(() => {
    ({ s, smtp, cloud } = h.servers());
  });
  const world = async (form: FormUnderTest) => {
    const w = await h.world(form);
    n = w.n;
    return w;
  };
  const { until, mailTo, notificationsOf } = h;

  describe.each(FORMS.map((f) => [f.name, f] as const))('%s', (_name, form) => {
    it('sends through the API, refuses bad input naming the field, and writes nothing then', async () => {
      const w = await world(form);
      const email = `sipho.${kind}.${n}@example.org`;
      const l = await s.call('POST', form.learners(w.slug), w.key, {
        firstName: 'Sipho',
        lastName: 'Dlamini',
        idNumber: idNumberFor(8000 + n),
        email,
      });
      await until('the welcome', async () => (await notificationsOf(w, l.body.id)).length === 1);
      const bad = [
        [{ learnerId: l.body.id, channel: 'email', template: 'nope' }, 'template'],
        [
          { learnerId: l.body.id, channel: 'email', template: 'evidence_approved', variables: {} },
          'variables.evidence.type',
        ],
        [
          { learnerId: l.body.id, channel: 'email', template: 'welcome', variables: { 'learner.shoeSize': '9' } },
          'variables.learner.shoeSize',
        ],
        [{ learnerId: l.body.id, channel: 'email', template: 'programme_milestone' }, 'template'],
      ] as const;
      for (const [body, field] of bad) {
        const r = await s.call('POST', `${w.prefix}/notifications`, w.key, body);
        expect(r.status, JSON.stringify(r.body)).toBe(form.invalidStatus);
        expect(JSON.stringify(r.body.error.details)).toContain(field);
      }
      const unknown = await s.call('POST', `${w.prefix}/notifications`, w.key, {
        recipientId: 'usr_nobody',
        channel: 'email',
        template: 'welcome',
      });
      expect(unknown.status).toBe(404);
      expect(await notificationsOf(w, l.body.id)).toHaveLength(1); // the welcome only

      const ok = await s.call('POST', `${w.prefix}/notifications`, w.key, {
        learnerId: l.body.id,
        channel: 'email',
        template: 'evidence_approved',
        variables: { 'evidence.type': 'logbook', 'module.name': '<Safety & Health>' },
      });
      expect(ok.status, JSON.stringify(ok.body)).toBe(202);
      expect(ok.body.status).toBe('queued');
      const mail = await until('the approval mail', async () =>
        (await smtp.received()).find((m) => m.to.includes(email) && m.subject.includes('logbook')),
      );
      expect(mail.html).toContain('&lt;Safety &amp; Health&gt;');
      const got = await until('sent', async () => {
        const r = await s.call('GET', `${w.prefix}/notifications/${ok.body.id}`, w.key);
        return r.body.status === 'sent' ? r.body : null;
      });
      expect(got.id).toBe(ok.body.id);

      const bulk = await s.call('POST', `${w.prefix}/notifications/bulk`, w.key, {
        recipientIds: [l.body.id, 'lrn_unknown'],
        channel: 'email',
        template: 'welcome',
      });
      expect(bulk.status).toBe(form.invalidStatus);
      expect(JSON.stringify(bulk.body.error.details)).toContain('recipientIds.1');
      const viewer = await s.key(w.slug, 'viewer');
      const refused = await s.call('POST', `${w.prefix}/notifications`, viewer.key, {
        learnerId: l.body.id,
        channel: 'email',
        template: 'welcome',
      });
      expect(refused.status).toBe(403);
    });

    it('templates: unknown variables are refused by name, preview renders, reset goes back to the default; admins only', async () => {
      const w = await world(form);
      const list = await s.call('GET', `${w.prefix}/notification-templates`, w.key);
      expect(list.status).toBe(200);
      expect(list.body.data.length).toBeGreaterThanOrEqual(15);
      const bad = await s.call('PUT', `${w.prefix}/notification-templates/welcome`, w.key, {
        subject: 'Hi {{module.name}}',
        html: '<p>x</p>',
        text: 'x',
      });
      expect(bad.status).toBe(form.invalidStatus);
      expect(JSON.stringify(bad.body)).toContain('module.name');
      const preview = await s.call('POST', `${w.prefix}/notification-templates/evidence_revision/preview`, w.key, {
        variables: { 'evidence.feedback': '<script>alert(1)</script>' },
      });
      expect(preview.status, JSON.stringify(preview.body)).toBe(200);
      expect(preview.body.html).toContain('&lt;script&gt;');
      expect(preview.body.html).not.toContain('<script>');
      const manager = await s.key(w.slug, 'manager');
      const forbidden = await s.call('PUT', `${w.prefix}/notification-templates/welcome`, manager.key, {
        subject: 'x',
        html: 'x',
        text: 'x',
      });
      expect(forbidden.status).toBe(403);
      await s.call('PUT', `${w.prefix}/notification-templates/welcome`, w.key, {
        subject: 'Custom',
        html: 'x',
        text: 'x',
      });
      expect((await s.call('DELETE', `${w.prefix}/notification-templates/welcome`, w.key)).status).toBe(204);
      const back = await s.call('GET', `${w.prefix}/notification-templates/welcome`, w.key);
      expect(back.body.source).toBe('default');
    });

    it('settings: triggers switch off, secrets are never shown, private SMTP hosts are refused, the test mail arrives', async () => {
      const w = await world(form);
      const get = await s.call('GET', `${w.prefix}/notification-settings`, w.key);
      expect(get.status).toBe(200);
      expect(get.body.triggers.welcome).toBe(true);
      const off = await s.call('PUT', `${w.prefix}/notification-settings`, w.key, { triggers: { welcome: false } });
      expect(off.status).toBe(200);
      expect(off.body.triggers.welcome).toBe(false);
      const bad = await s.call('PUT', `${w.prefix}/notification-settings`, w.key, {
        triggers: { nope: true },
        smtp: { host: '10.0.0.5', port: 25, from: 'x@y.org' },
      });
      expect(bad.status).toBe(form.invalidStatus);
      expect(JSON.stringify(bad.body)).toContain('triggers.nope');
      const priv = await s.call('PUT', `${w.prefix}/notification-settings`, w.key, {
        smtp: { host: '10.0.0.5', port: 25, from: 'x@y.org' },
      });
      expect(priv.status).toBe(form.invalidStatus);
      expect(JSON.stringify(priv.body)).toContain('smtp.host');
      const own = await s.call('PUT', `${w.prefix}/notification-settings`, w.key, {
        smtp: {
          host: '127.0.0.1',
          port: smtp.port,
          secure: false,
          user: 'u',
          password: 'hunter2-secret',
          from: 'Academy <academy@example.org>',
        },
      });
      expect(own.status, JSON.stringify(own.body)).toBe(200);
      expect(own.body.smtp).toMatchObject({ host: '127.0.0.1', passwordSet: true });
      expect(JSON.stringify(own.body)).not.toContain('hunter2');
      // The tenant's server asks for no auth and offers no TLS: the test reaches it anyway, and says what happened.
      await s.call('PUT', `${w.prefix}/notification-settings`, w.key, {
        smtp: { host: '127.0.0.1', port: smtp.port, secure: false, from: 'Academy <academy@example.org>' },
      });
      const test = await s.call('POST', `${w.prefix}/notification-settings/smtp/test`, w.key, {
        to: `admin.${n}@example.org`,
      });
      expect(test.status).toBe(200);
      if (test.body.sent) {
        const m = await mailTo(`admin.${n}@example.org`);
        expect(m.from).toContain('academy@example.org');
      } else expect(test.body.error).toBeTruthy();
      await s.call('PUT', `${w.prefix}/notification-settings`, w.key, { smtp: null });

      const l = await s.call('POST', form.learners(w.slug), w.key, {
        firstName: 'Off',
        lastName: 'Switch',
        idNumber: idNumberFor(9000 + n),
        email: `off.${n}@example.org`,
      });
      expect(l.status).toBe(201);
      await new Promise((r) => setTimeout(r, 300));
      expect(await notificationsOf(w, l.body.id)).toEqual([]);
    });

    it('email callbacks: signed JSON moves the status forward only; bad signatures are 401; the open pixel marks opened', async () => {
      const w = await world(form);
      const secret = await s.call('POST', `${w.prefix}/notification-settings/callback-secret`, w.key);
      expect(secret.status).toBe(200);
      const email = `cb.${kind}.${n}@example.org`;
      const l = await s.call('POST', form.learners(w.slug), w.key, {
        firstName: 'Lerato',
        lastName: 'M',
        idNumber: idNumberFor(10_000 + n),
        email,
      });
      const mail = await mailTo(email);
      const [sent] = await until('sent', async () => {
        const all = await notificationsOf(w, l.body.id);
        return all[0]?.status === 'sent' ? all : null;
      });
      const cb = (events: unknown[], sign = secret.body.secret as string) => {
        const raw = JSON.stringify({ events });
        return s.call('POST', `${w.prefix}/notifications/callbacks/email`, undefined, raw, {
          'content-type': 'application/json',
          'x-fundi-signature': emailCallbackSignature(raw, sign),
        });
      };
      const opened = await cb([{ messageId: mail.messageId, event: 'opened' }]);
      expect(opened.status, JSON.stringify(opened.body)).toBe(200);
      expect(opened.body).toEqual({ received: 1, applied: 1 });
      const late = await cb([{ messageId: mail.messageId, event: 'delivered' }]);
      expect(late.body).toEqual({ received: 1, applied: 0 });
      expect((await cb([{ messageId: mail.messageId, event: 'delivered' }], 'wrong-secret')).status).toBe(401);
      const unsigned = await s.call(
        'POST',
        `${w.prefix}/notifications/callbacks/email`,
        undefined,
        JSON.stringify({ events: [{ messageId: mail.messageId, event: 'bounced', bounceType: 'hard' }] }),
        { 'content-type': 'application/json' },
      );
      expect(unsigned.status).toBe(401);
      const got = await s.call('GET', `${w.prefix}/notifications/${sent!.id}`, w.key);
      expect(got.body.status).toBe('opened');

      const bounce = await cb([
        { messageId: mail.messageId, event: 'bounced', bounceType: 'hard', detail: '550 5.1.1 no such user' },
      ]);
      expect(bounce.body.applied).toBe(1);
      const after = await s.call('GET', `${w.prefix}/notifications/${sent!.id}`, w.key);
      expect(after.body.status).toBe('bounced');
      expect(after.body.history.at(-1)).toMatchObject({ status: 'bounced', detail: '550 5.1.1 no such user' });
      // Final: nothing moves it again.
      expect((await cb([{ messageId: mail.messageId, event: 'opened' }])).body.applied).toBe(0);

      const pixel = /src="https:\/\/fundi\.example(\/api\/v1\/notifications\/opened\/[^"]+)"/.exec(mail.html);
      expect(pixel).not.toBeNull();
      const gif = await fetch(s.url + pixel![1]!);
      expect(gif.status).toBe(200);
      expect(gif.headers.get('content-type')).toBe('image/gif');
    });

    it('a hard bounce at send ends in bounced, flags the learner and tells the admins', async () => {
      const w = await world(form);
      const admin = await useCasesOf(s.container, staff).createStaffUser.execute(w.slug, {
        email: `boss.${kind}.${n}@example.org`,
        name: 'Lindiwe Dube',
        role: 'admin',
      });
      const email = `gone.${kind}.${n}@example.org`;
      smtp.refuse(email, { code: 550, text: '5.1.1 mailbox unavailable', stage: 'rcpt' });
      const l = await s.call('POST', form.learners(w.slug), w.key, {
        firstName: 'Gone',
        lastName: 'Away',
        idNumber: idNumberFor(11_000 + n),
        email,
      });
      const [bounced] = await until('bounced', async () => {
        const all = await notificationsOf(w, l.body.id);
        return all[0]?.status === 'bounced' ? all : null;
      });
      expect(bounced!.history.at(-1)!.detail).toContain('550');
      const note = await mailTo(admin.user.email);
      expect(note.subject).toBe('Mail to Gone Away bounced');
      const learner = await s.call('GET', `${form.learners(w.slug)}/${l.body.id}`, w.key);
      if ('contactUpdateNeeded' in learner.body) expect(learner.body.contactUpdateNeeded).toBe(true);
    });

    it('a soft bounce is retried three times on the clock, then bounced', async () => {
      const w = await world(form);
      const email = `full.${kind}.${n}@example.org`;
      smtp.refuse(email, { code: 452, text: '4.2.2 mailbox full', stage: 'rcpt' });
      const l = await s.call('POST', form.learners(w.slug), w.key, {
        firstName: 'Full',
        lastName: 'Box',
        idNumber: idNumberFor(12_000 + n),
        email,
      });
      const final = await until('bounced after retries', async () => {
        clock.advance(3_600_000);
        const all = await notificationsOf(w, l.body.id);
        return all[0]?.status === 'bounced' ? all[0] : null;
      });
      expect(final.attempts).toBe(4);
      expect(final.history.filter((h) => h.status === 'queued').length).toBe(4);
    });

    it('a raw delivery status report bounces the mail it names; WhatsApp without consent is skipped; a dashboard export tells its asker', async () => {
      const w = await world(form);
      const secret = await s.call('POST', `${w.prefix}/notification-settings/callback-secret`, w.key);
      const email = `dsn.${kind}.${n}@example.org`;
      const l = await s.call('POST', form.learners(w.slug), w.key, {
        firstName: 'Dsn',
        lastName: 'Bounce',
        idNumber: idNumberFor(17_000 + n),
        email,
        mobile: `083 555 0${String(100 + n).slice(-3)}`,
      });
      const mail = await mailTo(email);
      await until('sent', async () => (await notificationsOf(w, l.body.id))[0]?.status === 'sent');
      const dsn = [
        'From: MAILER-DAEMON@mx.example.org',
        'To: no-reply@fundi.example',
        'Subject: Undelivered Mail Returned to Sender',
        'MIME-Version: 1.0',
        'Content-Type: multipart/report; report-type=delivery-status; boundary="b1"',
        '',
        '--b1',
        'Content-Type: text/plain',
        '',
        'Your message could not be delivered.',
        '--b1',
        'Content-Type: message/delivery-status',
        '',
        'Reporting-MTA: dns; mx.example.org',
        '',
        `Final-Recipient: rfc822; ${email}`,
        'Action: failed',
        'Status: 5.1.1',
        'Diagnostic-Code: smtp; 550 5.1.1 no such user',
        '',
        '--b1',
        'Content-Type: text/rfc822-headers',
        '',
        `Message-ID: ${mail.messageId}`,
        'From: Fundi <no-reply@fundi.example>',
        '',
        '--b1--',
        '',
      ].join('\r\n');
      const posted = await s.call('POST', `${w.prefix}/notifications/callbacks/email`, undefined, dsn, {
        'content-type': 'message/rfc822',
        'x-fundi-signature': emailCallbackSignature(dsn, secret.body.secret),
      });
      expect(posted.status, JSON.stringify(posted.body)).toBe(200);
      expect(posted.body).toEqual({ received: 1, applied: 1 });
      const welcome = (await notificationsOf(w, l.body.id))[0]!;
      expect(welcome.status).toBe('bounced');
      expect(welcome.history.at(-1)!.detail).toContain('5.1.1');
      const learner = await s.call('GET', `${form.learners(w.slug)}/${l.body.id}`, w.key);
      expect(learner.body.contactUpdateNeeded).toBe(true);

      const wa = await s.call('POST', `${w.prefix}/notifications`, w.key, {
        learnerId: l.body.id,
        channel: 'whatsapp',
        template: 'assessment_result',
        variables: { module_name: 'Safety', result: 'competent' },
      });
      expect(wa.status).toBe(202);
      expect(wa.body.status).toBe('skipped');
      expect(wa.body.history[0].detail).toBe('the learner has not consented to WhatsApp messages');

      const asker = await useCasesOf(s.container, staff).createStaffUser.execute(w.slug, {
        email: `asker.${kind}.${n}@example.org`,
        name: 'Palesa Mokoena',
        role: 'manager',
      });
      await useCasesOf(s.container, exportsCapability).exports.request(
        { tenantId: w.tenantId, id: asker.user.id, role: 'manager', scopes: [] },
        { type: 'learners' },
      );
      const ready = await until('the report-ready mail', async () =>
        (await smtp.received()).find(
          (m) => m.to.includes(asker.user.email) && m.subject.startsWith('Your report is ready'),
        ),
      );
      expect(ready.subject).toContain('learners export');
    });

    it('WhatsApp: the handshake answers the challenge, callbacks are signed, statuses only move forward', async () => {
      const w = await world(form);
      const phone = `${100000 + n}`;
      const put = await s.call('PUT', `${w.prefix}/notification-settings`, w.key, {
        whatsapp: {
          phoneNumberId: phone,
          accessToken: 'EAAG-test-token-123',
          appSecret: APP_SECRET,
          baseUrl: cloud.baseUrl,
          verifyToken: 'verify-me-please',
        },
      });
      expect(put.status, JSON.stringify(put.body)).toBe(200);
      expect(JSON.stringify(put.body)).not.toContain(APP_SECRET);
      const hs = await fetch(
        `${s.url}/v1/tenants/${w.slug}/notifications/callbacks/whatsapp?hub.mode=subscribe&hub.verify_token=verify-me-please&hub.challenge=1158201444`,
      );
      expect(hs.status).toBe(200);
      expect(await hs.text()).toBe('1158201444');
      const wrong = await fetch(
        `${s.url}/v1/tenants/${w.slug}/notifications/callbacks/whatsapp?hub.mode=subscribe&hub.verify_token=nope-nope-nope&hub.challenge=1`,
      );
      expect(wrong.status).toBe(403);

      const l = await s.call('POST', form.learners(w.slug), w.key, {
        firstName: 'Ayanda',
        lastName: 'Zulu',
        idNumber: idNumberFor(14_000 + n),
        mobile: '082 555 0' + String(100 + n).slice(-3),
        whatsappConsent: true,
      });
      expect(l.status, JSON.stringify(l.body)).toBe(201);
      const sent = await s.call('POST', `${w.prefix}/notifications`, w.key, {
        learnerId: l.body.id,
        channel: 'whatsapp',
        template: 'assessment_result',
        variables: { module_name: 'Welding safety', result: 'competent' },
      });
      expect(sent.status, JSON.stringify(sent.body)).toBe(202);
      const req = await until('the Cloud API request', async () =>
        cloud.requests.find((r) => r.body.to === l.body.mobile),
      );
      expect(req.body.template.name).toBe('assessment_result');
      expect(req.body.template.components[0]!.parameters.map((p) => p.text)).toEqual([
        'Ayanda',
        'Welding safety',
        'competent',
      ]);
      expect(req.headers.authorization).toBe('Bearer EAAG-test-token-123');
      await until(
        'sent',
        async () => (await s.call('GET', `${w.prefix}/notifications/${sent.body.id}`, w.key)).body.status === 'sent',
      );

      const callback = (statuses: { status: string; at: number }[], secret = APP_SECRET, id = req.messageId) => {
        const raw = JSON.stringify({
          object: 'whatsapp_business_account',
          entry: [
            {
              changes: [
                {
                  value: {
                    metadata: { phone_number_id: phone },
                    statuses: statuses.map((x) => ({
                      id,
                      status: x.status,
                      timestamp: String(x.at),
                      recipient_id: '27825550100',
                    })),
                  },
                },
              ],
            },
          ],
        });
        return s.call('POST', `${w.prefix}/notifications/callbacks/whatsapp`, undefined, raw, {
          'content-type': 'application/json',
          'x-hub-signature-256': whatsAppSignature(raw, secret),
        });
      };
      const t0 = Math.floor(clock.now().getTime() / 1000);
      // Shuffled: read arrives before delivered; the status ends at read whatever the order.
      const r1 = await callback([
        { status: 'read', at: t0 + 20 },
        { status: 'delivered', at: t0 + 10 },
      ]);
      expect(r1.status, JSON.stringify(r1.body)).toBe(200);
      expect(r1.body).toEqual({ received: 2, applied: 1 });
      expect((await callback([{ status: 'delivered', at: t0 + 30 }], 'another-secret')).status).toBe(401);
      // A valid signature of another body is refused (it covers the raw bytes), and so is none at all.
      const other = JSON.stringify({ entry: [] });
      const altered = await s.call('POST', `${w.prefix}/notifications/callbacks/whatsapp`, undefined, `${other} `, {
        'content-type': 'application/json',
        'x-hub-signature-256': whatsAppSignature(other, APP_SECRET),
      });
      expect(altered.status).toBe(401);
      const missing = await s.call('POST', `${w.prefix}/notifications/callbacks/whatsapp`, undefined, other, {
        'content-type': 'application/json',
      });
      expect(missing.status).toBe(401);
      const got = await s.call('GET', `${w.prefix}/notifications/${sent.body.id}`, w.key);
      expect(got.body.status).toBe('read');
      expect(got.body.history.map((h: { status: string }) => h.status)).toEqual(['queued', 'sent', 'read']);

      // Recording an assessment triggers the result by WhatsApp; the learner has no email, so that one is skipped.
      const code = `P-WA${n}`;
      expect((await s.call('POST', `${w.prefix}/programmes`, w.key, programmeBody(code))).status).toBe(201);
      const enr = await s.call('POST', `${w.prefix}/enrolments`, w.key, {
        learnerId: l.body.id,
        programmeCode: code,
        startDate: '2026-01-10',
      });
      expect(enr.status, JSON.stringify(enr.body)).toBe(201);
      const a = await s.call('POST', `${w.prefix}/assessments`, w.key, assessmentBody(l.body.id, 'KM-01'));
      expect(a.status, JSON.stringify(a.body)).toBe(201);
      const triggered = await until('the triggered Cloud API request', async () =>
        cloud.requests.find(
          (r) => r.body.to === l.body.mobile && r.body.template.components[0]!.parameters[1]!.text === 'Module KM-01',
        ),
      );
      expect(triggered.body.template.components[0]!.parameters.map((p) => p.text)).toEqual([
        'Ayanda',
        'Module KM-01',
        'competent',
      ]);
      const skippedMail = await until('the skipped email', async () =>
        (await notificationsOf(w, l.body.id)).find((x) => x.channel === 'email' && x.template === 'assessment_result'),
      );
      expect(skippedMail.status).toBe('skipped');
      expect(skippedMail.history[0]!.detail).toBe('the recipient has no email address');

      // The triggered message's own `read` callback shows in GET /notifications/{id}.
      const triggeredWa = await until('the triggered WhatsApp sent', async () =>
        (await notificationsOf(w, l.body.id)).find(
          (x) =>
            x.channel === 'whatsapp' &&
            x.trigger === 'assessment_result' &&
            x.id !== sent.body.id &&
            x.status === 'sent',
        ),
      );
      const read = await callback([{ status: 'read', at: t0 + 60 }], APP_SECRET, triggered.messageId);
      expect(read.body).toEqual({ received: 1, applied: 1 });
      const shown = await s.call('GET', `${w.prefix}/notifications/${triggeredWa.id}`, w.key);
      expect(shown.body).toMatchObject({ status: 'read', template: 'assessment_result', trigger: 'assessment_result' });
      expect(shown.body.history.map((h: { status: string }) => h.status)).toEqual(['queued', 'sent', 'read']);
    });
  });
});
