import { describe, expect, it, vi } from 'vitest';
import { useCasesOf } from '@fundi/adapters';
import { describeEachStorage } from '@fundi/adapters/testing';
import { idNumberFor } from '@fundi/domain/testing';
import { emailCallbackSignature } from '@fundi/application/notifications';
import { FORMS } from '../testing/http-forms.js';
import { exportsCapability, staff } from '../capabilities/index.js';
import { notificationsHttp } from './notifications-http-fixture.js';

vi.setConfig({ testTimeout: 60_000 });

describeEachStorage('notifications over HTTP: email callbacks, bounces and delivery reports', (_get, kind) => {
  const t = notificationsHttp(kind, 'ntd');
  const { clock, world, until, mailTo, notificationsOf } = t;

  describe.each(FORMS.map((f) => [f.name, f] as const))('%s', (_name, form) => {
    it('email callbacks: signed JSON moves the status forward only; bad signatures are 401; the open pixel marks opened', async () => {
      const w = await world(form);
      const { s, n } = t;
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
      // Unsigned or wrongly signed, a call learns nothing of the message ids it names: one answer for a known id and
      // an unknown one.
      const probe = async (messageId: string, sign: (raw: string) => Record<string, string>) => {
        const raw = JSON.stringify({ events: [{ messageId, event: 'delivered' }] });
        const r = await s.call('POST', `${w.prefix}/notifications/callbacks/email`, undefined, raw, {
          'content-type': 'application/json',
          ...sign(raw),
        });
        return { status: r.status, body: r.body };
      };
      const signings: [string, (raw: string) => Record<string, string>][] = [
        ['unsigned', () => ({})],
        ['malformed', () => ({ 'x-fundi-signature': 'sha256=not-hex' })],
        ['wrong secret', (raw) => ({ 'x-fundi-signature': emailCallbackSignature(raw, 'wrong-secret') })],
      ];
      for (const [what, sign] of signings) {
        const known = await probe(mail.messageId, sign);
        expect(known.status, what).toBe(401);
        expect(await probe('<nobody.1@nowhere.example>', sign), what).toEqual(known);
      }
      // Signed by the tenant, a report of an unknown message: Form B knows the tenant from its path and ignores it;
      // Form A cannot tell whose secret to check, so it is refused like a wrong signature.
      const unknown = await cb([{ messageId: '<nobody.2@nowhere.example>', event: 'delivered' }]);
      if (form.name === 'Form A') expect(unknown.status).toBe(401);
      else expect(unknown).toMatchObject({ status: 200, body: { received: 1, applied: 0 } });
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
      const { s, smtp, n } = t;
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
      const { s, smtp, n } = t;
      const email = `full.${kind}.${n}@example.org`;
      smtp.refuse(email, { code: 452, text: '4.2.2 mailbox full', stage: 'rcpt' });
      const l = await s.call('POST', form.learners(w.slug), w.key, {
        firstName: 'Full',
        lastName: 'Box',
        idNumber: idNumberFor(12_000 + n),
        email,
      });
      // The clock moves only to each retry's announced time (a second past it), never while a send runs: a clock
      // that ran on by the hour under a busy worker outran its job leases and its hourly jobs.
      const final = await until('bounced after retries', async () => {
        const [n] = await notificationsOf(w, l.body.id);
        if (n?.status === 'bounced') return n;
        const next = /next try at (\S+)$/.exec(n?.history.at(-1)?.detail ?? '')?.[1];
        if (next && clock.now() < new Date(next)) clock.set(new Date(Date.parse(next) + 1000));
        return null;
      });
      expect(final.attempts).toBe(4);
      expect(final.history.filter((h) => h.status === 'queued').length).toBe(4);
    });

    it('a raw delivery status report bounces the mail it names; WhatsApp without consent is skipped; a dashboard export tells its asker', async () => {
      const w = await world(form);
      const { s, smtp, n } = t;
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
      await useCasesOf(s.container, exportsCapability).exports.request.execute(
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
  });
});
