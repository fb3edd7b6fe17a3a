import { describe, expect, it, vi } from 'vitest';
import { describeEachStorage } from '@fundi/adapters/testing';
import { idNumberFor } from '@fundi/domain/testing';
import { FORM_A } from '../testing/http-forms.js';
import { settled, upload } from '../testing/import-fixtures.js';
import { programmeBody } from '../testing/training-fixtures.js';
import { notificationServers } from '../notifications/testing/notification-servers.js';

vi.setConfig({ testTimeout: 120_000 });

type Counts = Record<string, { email: number; whatsapp: number }>;

/**
 * The dry run counts the messages a confirm would send (docs/api.md, "Imports", "Messages"): per template and
 * channel, with `notify`, opt-outs, consents and the 30-day history rule; confirmed, the mail the loopback SMTP
 * server receives and the WhatsApp requests the loopback Cloud API receives are exactly those.
 */
describeEachStorage('imports over HTTP: the messages a confirm will send', (_get, kind) => {
  const h = notificationServers(kind, 'impmsg');

  describe('Form A', () => {
    it('predicts the welcomes and results per template and channel, and a confirm sends exactly those', async () => {
      const { s, smtp, cloud } = h.servers();
      const w = await h.world(FORM_A);
      const A = w.prefix;
      const day = (ago: number) => new Date(h.clock.now().getTime() - ago * 86_400_000).toISOString().slice(0, 10);
      const put = await s.call('PUT', `${A}/notification-settings`, w.key, {
        whatsapp: {
          phoneNumberId: `${300000 + w.n}`,
          accessToken: 'EAAG-test-token-123',
          appSecret: 'test-app-secret-123',
          baseUrl: cloud.baseUrl,
          verifyToken: 'verify-me-please',
        },
      });
      expect(put.status, JSON.stringify(put.body)).toBe(200);
      expect((await s.call('POST', `${A}/programmes`, w.key, programmeBody('P-MSG', ['KM-01']))).status).toBe(201);
      const base = 40_000 + w.n * 100;
      const id = (k: number) => idNumberFor(base + k);
      const mail = (k: number) => `msg${base + k}@example.com`;
      // Learners already there: one reachable on both channels, one opted out of email and without WhatsApp consent.
      for (const [k, extra] of [
        [0, { email: mail(0), mobile: `08255${String(base).slice(-5)}`, whatsappConsent: true }],
        [1, { email: mail(1), mobile: `08256${String(base).slice(-5)}`, emailOptOut: true }],
      ] as const) {
        const r = await s.call('POST', `${A}/learners`, w.key, {
          firstName: `Known${k}`,
          lastName: 'Learner',
          idNumber: id(k),
          ...extra,
        });
        expect(r.status, JSON.stringify(r.body)).toBe(201);
      }

      // Their own welcome (the API's) comes first, and is not the imports'.
      await h.mailTo(mail(0));
      await new Promise((ok) => setTimeout(ok, 1500));
      const mailsBefore = (await smtp.received()).length;
      const cloudBefore = cloud.requests.length;
      const predicted: Counts = {};
      const run = async (type: string, lines: string[], notify: 'all' | 'none') => {
        const r = await upload(s, w.key, A, type, lines.join('\n'), { notify });
        expect(r.status, JSON.stringify(r.body)).toBe(202);
        const v = await settled(s, w.key, A, r.body.id, ['validated', 'failed']);
        expect(v.status, JSON.stringify(v.errors)).toBe('validated');
        expect((await s.call('POST', `${A}/imports/${v.id}/confirm`, w.key)).status).toBe(202);
        await settled(s, w.key, A, v.id, ['completed']);
        for (const t of v.messages.templates) {
          const c = (predicted[t.template] ??= { email: 0, whatsapp: 0 });
          c.email += t.email;
          c.whatsapp += t.whatsapp;
        }
        return v.messages;
      };

      // New learners, told: two with an email (welcome mail), one without; none has WhatsApp consent yet.
      const learners = await run(
        'learners',
        [
          'first_name,last_name,id_number,email,mobile',
          `New2,Learner,${id(2)},${mail(2)},0821110002`,
          `New3,Learner,${id(3)},,0821110003`,
          `New4,Learner,${id(4)},${mail(4)},`,
          `Bad5,Learner,${id(5)},not-an-email,`,
        ],
        'all',
      );
      expect(learners).toEqual({ email: 2, whatsapp: 0, templates: [{ template: 'welcome', email: 2, whatsapp: 0 }] });
      // History: told nobody.
      expect(await run('learners', ['first_name,last_name,id_number', `Old6,Learner,${id(6)}`], 'none')).toEqual({
        email: 0,
        whatsapp: 0,
        templates: [],
      });
      const enrol = ['id_number,programme_code,start_date', ...[0, 1, 2].map((k) => `${id(k)},P-MSG,${day(200)}`)];
      expect(await run('enrolments', enrol, 'none')).toEqual({ email: 0, whatsapp: 0, templates: [] });
      // Results: 0 on both channels; 1 opted out and without consent; 2 by email only; 2's result of 90 days ago never.
      const results = await run(
        'assessments',
        [
          'id_number,module_code,assessment_type,outcome,assessment_date',
          `${id(0)},KM-01,summative,C,${day(2)}`,
          `${id(1)},KM-01,summative,C,${day(2)}`,
          `${id(2)},KM-01,formative,NYC,${day(5)}`,
          `${id(2)},KM-01,summative,C,${day(90)}`,
        ],
        'all',
      );
      expect(results).toEqual({
        email: 2,
        whatsapp: 1,
        templates: [{ template: 'assessment_result', email: 2, whatsapp: 1 }],
      });

      // What arrived, per template: each mail names its notification, whose template the API gives.
      const total = (c: Counts, ch: 'email' | 'whatsapp') => Object.values(c).reduce((n, x) => n + x[ch], 0);
      await h.until('every predicted mail and WhatsApp message', async () => {
        const m = (await smtp.received()).length - mailsBefore;
        const wa = cloud.requests.length - cloudBefore;
        return m >= total(predicted, 'email') && wa >= total(predicted, 'whatsapp');
      });
      // Anything more would arrive soon after the last: give it time to.
      await new Promise((ok) => setTimeout(ok, 2000));
      const arrived: Counts = {};
      for (const m of (await smtp.received()).slice(mailsBefore)) {
        const n = await s.call('GET', `${A}/notifications/${m.headers.get('x-fundi-notification')}`, w.key);
        expect(n.status).toBe(200);
        (arrived[n.body.template] ??= { email: 0, whatsapp: 0 }).email++;
      }
      for (const r of cloud.requests.slice(cloudBefore))
        (arrived[r.body.template.name] ??= { email: 0, whatsapp: 0 }).whatsapp++;
      expect(arrived).toEqual(predicted);
    });
  });
});
