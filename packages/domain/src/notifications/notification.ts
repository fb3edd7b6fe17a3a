import type { Page, PageRequest } from '../common/paging.js';
import type { NotificationChannel, NotificationStatus } from './notification-status.js';
import type { NotificationSettingsRepository } from './notification-settings.js';
import type { NotificationTemplateRepository } from './template-overrides.js';
import type { StaffPreferenceRepository } from './staff-preferences.js';

/** Who a notification is for: a learner, or a staff user of the tenant (the `/users` directory). */
export type RecipientType = 'learner' | 'user';

/**
 * A notification's state: a channel status, or `skipped` when it was never sent because the recipient opted out,
 * gave no WhatsApp consent, has no address for the channel, or the tenant turned the trigger off. `skipped` is
 * final and says why in its history entry.
 */
export type NotificationState = NotificationStatus | 'skipped';

export interface NotificationHistoryEntry {
  status: NotificationState;
  at: string;
  /** What happened (the provider's words for a failure, the reason for a skip); null when nothing to add. */
  detail: string | null;
}

/**
 * A history as an erasure leaves it: each status and time, without the details (a provider's words for a failure
 * may quote the address).
 */
export const withoutDetails = (h: readonly NotificationHistoryEntry[]): NotificationHistoryEntry[] =>
  h.map((e) => ({ ...e, detail: null }));

/** What is sent, rendered once when the notification is created (so a later template edit does not change it). */
export type NotificationContent =
  | { kind: 'email'; subject: string; html: string; text: string }
  | { kind: 'whatsapp'; template: string; language: string; parameters: string[] };

export interface NotificationSnapshot {
  id: string;
  tenantId: string;
  recipientType: RecipientType;
  recipientId: string;
  channel: NotificationChannel;
  /** The template key (`evidence_approved`). */
  template: string;
  /**
   * The learner the message is about: the recipient when a learner, or the learner a staff message names
   * (`new_evidence`, `contact_bounced`); null when it concerns none. An erasure finds the message by it.
   */
  learnerId: string | null;
  /** The address or E.164 number it goes to; null when skipped for want of one, or after the learner's erasure. */
  to: string | null;
  /** Null when skipped, or after the learner's erasure. */
  content: NotificationContent | null;
  status: NotificationState;
  history: NotificationHistoryEntry[];
  /** Send attempts made so far. */
  attempts: number;
  /** The provider's id (SMTP Message-ID, Cloud API `wamid`), which callbacks name. */
  providerMessageId: string | null;
  /** The trigger that sent it (`welcome`, ...), or null when sent through the API. */
  trigger: string | null;
  /** One notification per key and tenant: a trigger event and recipient that come twice send once. */
  dedupeKey: string | null;
  /** The API key id that asked for it, or `system` for a trigger. */
  createdBy: string;
  createdAt: string;
  updatedAt: string;
}

export interface NotificationFilter {
  recipientId?: string;
  channel?: NotificationChannel;
  status?: NotificationState;
  template?: string;
}

/** Port: notifications. */
export interface NotificationRepository {
  /**
   * Inserts the notifications, leaving out any whose `dedupeKey` the tenant already has (and any repeated within
   * the call); returns the ones inserted, in the given order.
   */
  insertMany(ns: readonly NotificationSnapshot[]): Promise<NotificationSnapshot[]>;
  /** Replaces the row; not found when it does not exist. */
  update(n: NotificationSnapshot): Promise<void>;
  /**
   * Writes the send outcome of many notifications of one tenant at once (status, history, attempts, provider id,
   * updated time), in one statement where the store allows, to those still `queued`; other rows (absent, another
   * tenant's, moved on meanwhile) are left as they are. Content is only ever dropped (null in `ns`), never written
   * back, and a row whose address is gone gets the history without its details: an erasure may have redacted the
   * stored copy while the message was being sent.
   */
  updateOutcomes(tenantId: string, ns: readonly NotificationSnapshot[]): Promise<void>;
  findById(tenantId: string, id: string): Promise<NotificationSnapshot | null>;
  /** The tenant's notifications among `ids` (any order). */
  findMany(tenantId: string, ids: readonly string[]): Promise<NotificationSnapshot[]>;
  /** Across tenants: provider ids are unique per channel. */
  findByProviderMessageId(
    channel: NotificationChannel,
    providerMessageId: string,
  ): Promise<NotificationSnapshot | null>;
  /** Oldest first (by id), in the store's paging rules. */
  list(tenantId: string, filter: NotificationFilter, page: PageRequest): Promise<Page<NotificationSnapshot>>;
  /**
   * POPIA erasure: every notification to the learner or about them (`learnerId`) loses its content and the details
   * of its history; those to the learner lose their address too. Statuses, times and attempts stay. Messages sent
   * through the API to staff users name no learner: those whose content holds one of `mentions` (case-insensitive;
   * the learner's email, ID numbers, phone numbers and full name) are redacted the same way and from then on name
   * the learner as theirs. Returns how many notifications were redacted.
   */
  redactLearner(tenantId: string, learnerId: string, mentions?: readonly string[]): Promise<number>;
  /** The tenant's notifications among `ids` that an erasure redacted (about a learner, content gone), by id. */
  redactedAmong(tenantId: string, ids: readonly string[]): Promise<string[]>;
  /** The ids of the tenant's notifications about the learner (`learnerId`), to them or to staff. */
  idsAbout(tenantId: string, learnerId: string): Promise<string[]>;
  /**
   * Retention: deletes up to `limit` notifications, with their history, that left Fundi (any status but `queued`)
   * and last changed before `before`, oldest first, in one statement; returns how many. A queued notification is
   * never deleted. A provider's callback about a deleted one finds nothing, as for an unknown message.
   */
  pruneSettled(before: string, limit: number): Promise<number>;
}

export interface NotificationRepos {
  notifications: NotificationRepository;
  notificationTemplates: NotificationTemplateRepository;
  notificationSettings: NotificationSettingsRepository;
  staffPreferences: StaffPreferenceRepository;
}
