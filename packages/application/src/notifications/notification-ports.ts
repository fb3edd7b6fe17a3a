import type { PlatformRepos, SecretBox, SecretGenerator, TenantRepos } from '@fundi/domain';
import type { LearnerRepos } from '@fundi/domain/learners';
import type { LogbookRepos } from '@fundi/domain/logbooks';
import type { StaffRepos } from '@fundi/domain/staff';
import type { TrainingRepos } from '@fundi/domain/training';
import type { Mailer, MessagingChannel, NotificationRepos } from '@fundi/domain/notifications';
import type { UrlSigner } from '../common/url-signer.js';
import type { OfferedHooks } from '../common/hooks.js';
import type { CoreDeps } from '../common/ports.js';

/** A tenant's SMTP server with its password opened. */
export interface OpenSmtpSettings {
  host: string;
  port: number;
  secure: boolean;
  user: string | null;
  password: string | null;
  from: string;
}

/** A tenant's WhatsApp Cloud API account with its token opened. */
export interface OpenWhatsAppSettings {
  phoneNumberId: string;
  baseUrl: string;
  apiVersion: string;
  accessToken: string;
}

/**
 * Port: the channels notifications go out through. Adapters keep pooled transports per settings, so asking for
 * the same settings again is cheap.
 */
export interface NotificationChannels {
  /** The tenant's own SMTP server, or the operator's default mail (SMTP, or the local outbox folder) when null. */
  mailer(smtp: OpenSmtpSettings | null): { mailer: Mailer; from: string };
  /** The tenant's WhatsApp account, or the operator's default one; null when neither is configured. */
  whatsapp(settings: OpenWhatsAppSettings | null): MessagingChannel | null;
  /** The operator's default WhatsApp account's app secret and verify token (callbacks for it), when configured. */
  defaultWhatsApp: { appSecret: string; verifyToken: string } | null;
  /**
   * Deletes the copies of sent mail the service keeps (the outbox folder's files) filed under any of `refs`
   * (`OutgoingEmail.refs`: a learner's id, a notification's); returns how many. Idempotent. Mail handed to an SMTP
   * server or WhatsApp is out of reach.
   */
  forgetMail(refs: readonly string[]): Promise<number>;
}

export interface NotificationSettingsConfig {
  /** Public base of the service, for links in mail (open pixel, unsubscribe, dashboard); '' = none. */
  publicUrl: string;
  /** Refuses a tenant's SMTP host or WhatsApp base URL that points to a private or reserved address (field named). */
  checkHost(url: string, field: string): Promise<void>;
}

export type NotificationRepoSet = NotificationRepos &
  LearnerRepos &
  StaffRepos &
  TenantRepos &
  TrainingRepos &
  Pick<LogbookRepos, 'logbookEntries'> &
  PlatformRepos;

export type NotificationPorts = CoreDeps<NotificationRepoSet> & {
  channels: NotificationChannels;
  /** Seals SMTP passwords, WhatsApp tokens and callback secrets at rest. */
  box: SecretBox;
  /** Signs open-pixel and unsubscribe links. */
  signer: UrlSigner;
  /** Hashes a presented API key the way stored keys are hashed (to tell whose refused key it was). */
  secrets: SecretGenerator;
  settings: NotificationSettingsConfig;
  /** Every capability's triggers (the `triggers` hook): their templates, variables and sources. */
  hooks: Pick<OfferedHooks, 'triggers'>;
};
