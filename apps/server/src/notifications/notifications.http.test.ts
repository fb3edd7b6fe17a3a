import { describe, expect, it, vi } from 'vitest';
import { describeEachStorage } from '@fundi/adapters/testing';
import { idNumberFor } from '@fundi/domain/testing';
import { FORMS } from '../testing/http-forms.js';
import { notificationsHttp } from './notifications-http-fixture.js';

vi.setConfig({ testTimeout: 30_000 });

describeEachStorage('notifications over HTTP: sending, templates, settings', (_get, kind) => {
  const t = notificationsHttp(kind, 'ntf');
  const { world, until, mailTo, notificationsOf } = t;

  describe.each(FORMS.map((f) => [f.name, f] as const))('%s', (_name, form) => {
    it('sends through the API, refuses bad input naming the field, and writes nothing then', async () => {
      const w = await world(form);
      const { s, smtp, n } = t;
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
      const { s } = t;
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
      const { s, smtp, n } = t;
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
      // The same host check as webhook and HR receivers: a trailing dot or another spelling is the same address.
      for (const host of ['127.0.0.2.', 'localhost.', 'localhost', '0x7f.2', '10.0.0.5.']) {
        const spelled = await s.call('PUT', `${w.prefix}/notification-settings`, w.key, {
          smtp: { host, port: 25, from: 'x@y.org' },
        });
        expect(spelled.status, host).toBe(form.invalidStatus);
        expect(JSON.stringify(spelled.body), host).toContain('smtp.host');
      }
      expect((await s.call('GET', `${w.prefix}/notification-settings`, w.key)).body.smtp).toBeNull();
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
  });
});
