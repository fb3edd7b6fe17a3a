/** A tenant's own SMTP server; the password is sealed (AES-GCM under the master key). */
export interface StoredSmtpSettings {
  host: string;
  port: number;
  secure: boolean;
  user: string | null;
  passwordCiphertext: string | null;
  from: string;
}

/** A tenant's WhatsApp Cloud API settings; the token and app secret are sealed. */
export interface StoredWhatsAppSettings {
  phoneNumberId: string;
  baseUrl: string;
  apiVersion: string;
  accessTokenCiphertext: string;
  appSecretCiphertext: string;
  /** The token Meta echoes in the subscription handshake (`hub.verify_token`); not a secret worth sealing. */
  verifyToken: string;
  /** The tenant's own approved template names and languages, by template key (absent: the built-in names). */
  templates?: Record<string, { name: string; language: string }>;
}

export interface StoredNotificationSettings {
  tenantId: string;
  /** Trigger switches; a trigger not listed is on. */
  triggers: Record<string, boolean>;
  smtp: StoredSmtpSettings | null;
  whatsapp: StoredWhatsAppSettings | null;
  /** Signs the JSON bounce callbacks (`POST /notifications/callbacks/email`); sealed. */
  callbackSecretCiphertext: string | null;
  updatedAt: string;
}

/** Port: per-tenant notification settings. */
export interface NotificationSettingsRepository {
  get(tenantId: string): Promise<StoredNotificationSettings | null>;
  put(s: StoredNotificationSettings): Promise<void>;
  /** The tenant whose WhatsApp settings name this phone number id (callbacks name it), or null. */
  findByPhoneNumberId(phoneNumberId: string): Promise<StoredNotificationSettings | null>;
  /** Every tenant's settings that hold sealed secrets (re-sealing after a master-key rotation). */
  listWithSecrets(): Promise<StoredNotificationSettings[]>;
}
