import { beforeAll, describe, expect, it, vi } from 'vitest';
import { useCasesOf } from '@fundi/adapters';
import { describeEachStorage } from '@fundi/adapters/testing';
import { FORMS, type FormUnderTest } from '../testing/http-forms.js';
import type { TestServer } from '../testing/test-server.js';
import { notificationServers } from './testing/notification-servers.js';
import { staff } from '../capabilities/index.js';

vi.setConfig({ testTimeout: 30_000 });

describeEachStorage('staff users over HTTP: the directory, and the invitation sent by email', (_get, kind) => {
  const h = notificationServers(kind, 'ntu');
  let s: TestServer;
  let n = 0;
  beforeAll(() => {
    ({ s } = h.servers());
  });
  const world = async (form: FormUnderTest) => {
    const w = await h.world(form);
    n = w.n;
    return w;
  };
  const { until, mailTo, notificationsOf } = h;

  describe.each(FORMS.map((f) => [f.name, f] as const))('%s', (_name, form) => {
    it('users: the directory in both forms; a new user is invited by email with a working set-password link', async () => {
      const w = await world(form);
      const email = `new.staff.${kind}.${n}@example.org`;
      const bad = await s.call('POST', `${w.prefix}/users`, w.key, {
        name: 'Sipho',
        email,
        role: 'assessor',
        mobile: '123',
        notificationPreferences: { nope: false },
      });
      expect(bad.status).toBe(form.invalidStatus);
      expect(JSON.stringify(bad.body)).toContain('notificationPreferences.nope');
      expect(JSON.stringify(bad.body)).toContain('mobile');
      const manager = await s.key(w.slug, 'manager');
      expect(
        (await s.call('POST', `${w.prefix}/users`, manager.key, { name: 'X', email, role: 'viewer' })).status,
      ).toBe(403);
      const made = await s.call('POST', `${w.prefix}/users`, w.key, {
        name: 'Sipho Dlamini',
        email,
        role: 'assessor',
        mobile: '082 555 0199',
        notificationPreferences: { new_evidence: false },
      });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      expect(made.headers.get('location')).toContain(`/users/${made.body.id}`);
      expect(made.body).toMatchObject({ mobile: '+27825550199', status: 'active', hasPassword: false });
      expect(made.body.notificationPreferences).toMatchObject({ new_evidence: false, security_alert: true });
      // Every trigger a staff user may turn off, offered by its capability, in the templates' order.
      expect(Object.keys(made.body.notificationPreferences)).toEqual([
        'new_evidence',
        'moderation_due',
        'report_ready',
        'user_invited',
        'security_alert',
        'export_complete',
        'quota_warning',
        'webhook_disabled',
        'contact_bounced',
      ]);
      const dup = await s.call('POST', `${w.prefix}/users`, w.key, {
        name: 'Again',
        email: email.toUpperCase(),
        role: 'viewer',
      });
      expect(dup.status).toBe(409);

      const invite = await mailTo(email);
      expect(invite.subject).toBe(`You are invited to Tenant ${w.slug}`);
      const link = /https:\/\/fundi\.example\/dashboard\/set-password\?token=([^\s"<]+)/.exec(invite.text);
      expect(link).not.toBeNull();
      const peek = await useCasesOf(s.container, staff).peekSetPassword.execute(decodeURIComponent(link![1]!));
      expect(peek?.email).toBe(email);
      const sent = await until('the invitation sent', async () =>
        (await notificationsOf(w, made.body.id)).find((x) => x.template === 'user_invited' && x.status === 'sent'),
      );
      expect(sent.to).toBe(email);

      const patched = await s.call('PATCH', `${w.prefix}/users/${made.body.id}`, w.key, {
        notificationPreferences: { security_alert: false },
        role: 'admin',
      });
      expect(patched.status, JSON.stringify(patched.body)).toBe(200);
      expect(patched.body.notificationPreferences).toMatchObject({ new_evidence: false, security_alert: false });
      const list = await s.call('GET', `${w.prefix}/users?role=admin`, w.key);
      expect(list.status).toBe(200);
      expect(list.body.data.map((u: { id: string }) => u.id)).toContain(made.body.id);
      const off = await s.call('POST', `${w.prefix}/users/${made.body.id}/deactivate`, w.key);
      expect(off.status).toBe(200);
      expect(off.body.status).toBe('disabled');
      expect((await s.call('POST', `${w.prefix}/users/${made.body.id}/activate`, w.key)).body.status).toBe('active');
      expect((await s.call('GET', `${w.prefix}/users/usr_nobody`, w.key)).status).toBe(404);
    });
  });
});
