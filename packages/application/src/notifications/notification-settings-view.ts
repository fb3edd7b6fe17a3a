import type { StoredNotificationSettings } from '@fundi/domain/notifications';
import type { WhatsAppStored } from './channel-settings.js';

export interface SettingsView {
  triggers: Record<string, boolean>;
  smtp: { host: string; port: number; secure: boolean; user: string | null; from: string; passwordSet: boolean } | null;
  whatsapp: {
    phoneNumberId: string;
    baseUrl: string;
    apiVersion: string;
    verifyToken: string;
    accessTokenSet: boolean;
    appSecretSet: boolean;
    templates: Record<string, { name: string; language: string }>;
  } | null;
  callbackSecretSet: boolean;
  updatedAt: string | null;
}

/** A tenant's settings before it changed any: every trigger on, no accounts of its own, no callback secret. */
export const emptySettings = (tenantId: string): StoredNotificationSettings => ({
  tenantId,
  triggers: {},
  smtp: null,
  whatsapp: null,
  callbackSecretCiphertext: null,
  updatedAt: '',
});

/** What the settings API answers: every trigger's switch (`keys`, in order), secrets only as whether they are set. */
export function settingsView(s: StoredNotificationSettings, keys: readonly string[]): SettingsView {
  const wa = s.whatsapp as WhatsAppStored | null;
  return {
    triggers: Object.fromEntries(keys.map((k) => [k, s.triggers[k] !== false])),
    smtp: s.smtp
      ? {
          host: s.smtp.host,
          port: s.smtp.port,
          secure: s.smtp.secure,
          user: s.smtp.user,
          from: s.smtp.from,
          passwordSet: s.smtp.passwordCiphertext !== null,
        }
      : null,
    whatsapp: wa
      ? {
          phoneNumberId: wa.phoneNumberId,
          baseUrl: wa.baseUrl,
          apiVersion: wa.apiVersion,
          verifyToken: wa.verifyToken,
          accessTokenSet: true,
          appSecretSet: true,
          templates: wa.templates ?? {},
        }
      : null,
    callbackSecretSet: s.callbackSecretCiphertext !== null,
    updatedAt: s.updatedAt || null,
  };
}
