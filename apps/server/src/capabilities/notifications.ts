import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TokenSigner } from '@fundi/adapters';
import { receiverCheck } from '@fundi/adapters/webhooks';
import { NodeNotificationChannels, notificationStorage, type ChannelDefaults } from '@fundi/adapters/notifications';
import type { Ports } from '@fundi/application';
import { erasureJob, onLearnerErased } from '@fundi/application/learners';
import type { SendSignIn } from '@fundi/application/portal';
import {
  DEADLINE_REMINDERS,
  ERASE_MAIL_COPIES,
  importMessageCount,
  RUN_TRIGGERS,
  SEND_NOTIFICATIONS,
  notificationErasureStep,
  notificationRetention,
  notificationUseCases,
  OWN_TRIGGERS,
  type NotificationRepoSet,
  type TriggerPayload,
} from '@fundi/application/notifications';
import { DomainError } from '@fundi/domain';
import {
  bulkNotify,
  bulkNotifyPages,
  learnerNotifications,
  notificationRoutes,
  notificationPages,
  notificationPreferencesField,
} from '@fundi/http/notifications';
import { capability } from './capability.js';

export interface NotificationSettings {
  /** The operator's default channels (FUNDI_SMTP_URL, FUNDI_SMTP_FROM, FUNDI_WHATSAPP_*); see docs/api.md. */
  channels?: Partial<ChannelDefaults>;
  /** Absolute base for links in mail (open pixel, unsubscribe, dashboard). */
  publicUrl: string;
  masterKey: Buffer;
  /** Hosts a tenant's SMTP server or WhatsApp base URL may be although they resolve to private addresses. */
  allowHosts: readonly string[];
}

const DAY = 86_400_000;

const processMailFolders = new Set<string>();

/**
 * Where mail goes when nothing is configured (a container made in code, as tests and benchmarks make them; the
 * servers always configure a folder under their data directory): a folder of this process, removed when it exits.
 */
function processMailFolder(): string {
  const folder = join(tmpdir(), `fundi-outbox-${process.pid}`);
  if (!processMailFolders.has(folder)) {
    processMailFolders.add(folder);
    // Mail still being written when the process ends can refill the folder while it is removed (ENOTEMPTY): try
    // again a few times, and never let a leftover folder turn an exit into a crash.
    process.once('exit', () => {
      try {
        rmSync(folder, { recursive: true, force: true, maxRetries: 5, retryDelay: 20 });
      } catch {}
    });
  }
  return folder;
}

/** The next 06:00 UTC strictly after `after`. */
export function nextSixAm(after: Date): Date {
  const six = Math.floor(after.getTime() / DAY) * DAY + 6 * 3_600_000;
  return new Date(six > after.getTime() ? six : six + DAY);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** A queued `notifications.run_triggers` event as `trigger-sources` writes it (its `data` values are not read here). */
function isTriggerPayload(e: unknown): e is TriggerPayload {
  return (
    isObject(e) &&
    typeof e.tenantId === 'string' &&
    typeof e.eventId === 'string' &&
    typeof e.type === 'string' &&
    isObject(e.data) &&
    (e.learnerIds === undefined || (Array.isArray(e.learnerIds) && e.learnerIds.every((id) => typeof id === 'string')))
  );
}

/** Notifications by email and WhatsApp: sends, triggers on events, templates, settings, callbacks. */
export function notifications(settings: NotificationSettings) {
  const channels = new NodeNotificationChannels({
    smtpUrl: null,
    smtpFrom: 'Fundi <no-reply@fundi.local>',
    whatsapp: null,
    ...settings.channels,
    outboxFolder: settings.channels?.outboxFolder ?? processMailFolder(),
  });
  const signer = new TokenSigner(settings.masterKey);
  const check = receiverCheck(settings.allowHosts);
  return capability({
    name: 'notifications',
    storage: notificationStorage,
    declares: {
      scopes: {
        'notifications:read': ['admin', 'manager', 'assessor', 'facilitator', 'viewer', 'integration'],
        'notifications:write': ['admin', 'manager', 'facilitator', 'integration'],
        'notifications:delete': ['admin', 'manager'],
      },
      ids: ['ntf'],
      // Notifications that left Fundi a year after their last change.
      retention: [{ kind: 'notifications', days: 365, variable: 'FUNDI_RETAIN_NOTIFICATIONS_DAYS' }],
      offers: {
        learnerErasure: notificationErasureStep,
        triggers: OWN_TRIGGERS,
        staffFields: notificationPreferencesField,
        // The imports' dry run counts what a confirm would send; a tenant without its own WhatsApp settings sends
        // WhatsApp through the server's.
        importMessages: importMessageCount(Boolean(settings.channels?.whatsapp)),
      },
    },
    useCases: (p: Ports<NotificationRepoSet>) => ({
      ...notificationUseCases({
        ...p,
        channels,
        box: p.secretBox('notification-secret'),
        signer,
        settings: {
          publicUrl: settings.publicUrl.replace(/\/+$/, ''),
          checkHost: async (url, field) => {
            try {
              await check(url);
            } catch (e) {
              if (e instanceof DomainError)
                throw DomainError.invalid(field, 'points to a private, loopback or reserved address');
              throw e;
            }
          },
        },
      }),
      /** Ends the pooled SMTP connections (shutdown). */
      closeChannels: () => channels.close(),
      describeDefaultMail: () => channels.describeDefault(),
    }),
    routes: notificationRoutes,
    pageDeps: (u) => ({
      notifications: u,
      requestPasswordReset: (tenant: string, email: string) =>
        u.notificationTriggers.requestPasswordReset.execute(tenant, email),
      sendSignIn: ((learner, secret) =>
        u.notificationTriggers.sendPortalSignIn.execute(learner, secret)) satisfies SendSignIn,
    }),
    dashboard: {
      nav: [{ href: '/dashboard/notifications', label: 'Notifications', order: 90, scope: 'notifications:read' }],
      pages: [notificationPages, bulkNotifyPages],
      sections: { learnerRecord: [learnerNotifications], learnerBulk: [bulkNotify] },
    },
    hooks: (u) => ({
      refusedKeys: async (r) => void (await u.notificationTriggers.noteRefusedKeys.execute(r)),
      startNotes: () => [`Mail goes to ${u.describeDefaultMail()}`],
      close: () => u.closeChannels(),
      rewrap: async () => {
        const n = await u.notificationSettings.resealSecrets.execute();
        return [
          { key: 'notificationSettings', count: n, said: `sealed ${n} tenants' mail and WhatsApp secrets again` },
        ];
      },
    }),
    reactions: (u) => [u.notificationTriggers.reaction, onLearnerErased(ERASE_MAIL_COPIES)],
    retention: notificationRetention,
    jobs: (u) => [
      erasureJob(ERASE_MAIL_COPIES, (p) => u.forgetLearnerMail.execute(p)),
      {
        ...SEND_NOTIFICATIONS,
        concurrency: 8,
        parse: (v: unknown) => {
          if (
            !isObject(v) ||
            typeof v.tenantId !== 'string' ||
            !Array.isArray(v.ids) ||
            !v.ids.every((x) => typeof x === 'string')
          )
            throw new Error('expected {tenantId, ids}');
          return { tenantId: v.tenantId, ids: v.ids as string[] };
        },
        run: (p: { tenantId: string; ids: string[] }) => u.notificationDelivery.send.execute(p.tenantId, p.ids),
      },
      {
        ...RUN_TRIGGERS,
        concurrency: 4,
        parse: (v: unknown): { events: TriggerPayload[] } => {
          const events: unknown[] | null = isObject(v) && Array.isArray(v.events) ? v.events : null;
          if (!events?.every(isTriggerPayload))
            throw new Error('expected {events: [{tenantId, eventId, type, data, learnerIds?}]}');
          return { events };
        },
        run: (p: { events: TriggerPayload[] }) => u.notificationTriggers.run.execute(p.events),
      },
      {
        ...DEADLINE_REMINDERS,
        parse: () => ({}),
        run: async () => void (await u.notificationTriggers.remindDeadlines.execute()),
        // Every day at 06:00 UTC (08:00 in South Africa).
        recurring: { next: nextSixAm, payload: {} },
      },
    ],
  });
}
