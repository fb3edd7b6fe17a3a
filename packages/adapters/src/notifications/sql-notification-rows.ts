import type { NotificationChannel, NotificationSnapshot } from '@fundi/domain/notifications';
import type { Binding } from '../db/sql-db.js';

// Row mapping shared by the notification repositories (sql-notifications.ts, sql-notification-batches.ts,
// sql-notification-settings.ts).

export type Row = Record<string, unknown>;
export const s = (v: unknown) => (v ?? null) as string | null;
export const json = <T>(v: unknown): T | null =>
  v === null || v === undefined ? null : (JSON.parse(v as string) as T);

export const COLUMNS = [
  'id',
  'tenant_id',
  'recipient_type',
  'recipient_id',
  'channel',
  'template',
  'learner_id',
  'to_address',
  'content',
  'status',
  'history',
  'attempts',
  'provider_message_id',
  'trigger_key',
  'dedupe_key',
  'created_by',
  'created_at',
  'updated_at',
];

export function toRow(n: NotificationSnapshot): Binding[] {
  return [
    n.id,
    n.tenantId,
    n.recipientType,
    n.recipientId,
    n.channel,
    n.template,
    n.learnerId,
    n.to,
    n.content ? JSON.stringify(n.content) : null,
    n.status,
    JSON.stringify(n.history),
    n.attempts,
    n.providerMessageId,
    n.trigger,
    n.dedupeKey,
    n.createdBy,
    n.createdAt,
    n.updatedAt,
  ];
}

export function fromRow(r: Row): NotificationSnapshot {
  return {
    id: r.id as string,
    tenantId: r.tenant_id as string,
    recipientType: r.recipient_type as NotificationSnapshot['recipientType'],
    recipientId: r.recipient_id as string,
    channel: r.channel as NotificationChannel,
    template: r.template as string,
    learnerId: s(r.learner_id),
    to: s(r.to_address),
    content: json(r.content),
    status: r.status as NotificationSnapshot['status'],
    history: json(r.history) ?? [],
    attempts: Number(r.attempts),
    providerMessageId: s(r.provider_message_id),
    trigger: s(r.trigger_key),
    dedupeKey: s(r.dedupe_key),
    createdBy: r.created_by as string,
    createdAt: r.created_at as string,
    updatedAt: r.updated_at as string,
  };
}
