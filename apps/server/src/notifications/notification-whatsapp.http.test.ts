import { describe, expect, it, vi } from 'vitest';
import { describeEachStorage } from '@fundi/adapters/testing';
import { idNumberFor } from '@fundi/domain/testing';
import { whatsAppSignature } from '@fundi/domain/notifications';
import { FORMS } from '../testing/http-forms.js';
import { assessmentBody, programmeBody } from '../testing/training-fixtures.js';
import { APP_SECRET, notificationsHttp } from './notifications-http-fixture.js';

vi.setConfig({ testTimeout: 30_000 });

describeEachStorage('notifications over HTTP: WhatsApp handshake, sending and callbacks', (_get, kind) => {
  const t = notificationsHttp(kind, 'ntw');
  const { clock, world, until, notificationsOf } = t;

  describe.each(FORMS.map((f) => [f.name, f] as const))('%s', (_name, form) => {
    it('WhatsApp: the handshake answers the challenge, callbacks are signed, statuses only move forward', async () => {
      const w = await world(form);
      const { s, cloud, n } = t;
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
      // A message that asks the learner to act carries their portal link, as the email does.
      const revise = await s.call('POST', `${w.prefix}/notifications`, w.key, {
        learnerId: l.body.id,
        channel: 'whatsapp',
        template: 'evidence_revision',
        variables: { evidence_type: 'logbook', feedback: 'Please add page 4.' },
      });
      expect(revise.status, JSON.stringify(revise.body)).toBe(202);
      const revised = await until('the revision request', async () =>
        cloud.requests.find((r) => r.body.to === l.body.mobile && r.body.template.name === 'evidence_revision'),
      );
      const params = revised.body.template.components[0]!.parameters.map((p) => p.text);
      expect(params.slice(0, 3)).toEqual(['Ayanda', 'logbook', 'Please add page 4.']);
      expect(params[3]).toMatch(new RegExp(`^https?://[^/]+/learn\\?tenant=${w.slug}$`));
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
      // Unsigned or wrongly signed, a call learns nothing of the accounts and messages it names, and its body is not
      // read as anything but the account's name before the check: one 401 for known and unknown ids, and for no JSON.
      const probe = async (phoneId: string, messageId: string, signature: string | null) => {
        const raw = JSON.stringify({
          entry: [{ changes: [{ value: { metadata: { phone_number_id: phoneId }, statuses: [{ id: messageId }] } }] }],
        });
        const r = await s.call('POST', `${w.prefix}/notifications/callbacks/whatsapp`, undefined, raw, {
          'content-type': 'application/json',
          ...(signature === null ? {} : { 'x-hub-signature-256': signature }),
        });
        return { status: r.status, body: r.body };
      };
      const signatures: (string | null)[] = [null, 'sha256=nope', whatsAppSignature('something else', APP_SECRET)];
      for (const signature of signatures) {
        const known = await probe(phone!, req.messageId!, signature);
        expect(known.status).toBe(401);
        expect(await probe(phone!, 'wamid.nobody', signature)).toEqual(known);
        expect(await probe('000000000000', req.messageId!, signature)).toEqual(known);
      }
      const notJson = await s.call('POST', `${w.prefix}/notifications/callbacks/whatsapp`, undefined, '{not json', {
        'content-type': 'application/json',
        'x-hub-signature-256': whatsAppSignature('{not json', APP_SECRET),
      });
      expect(notJson.status).toBe(401);
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
