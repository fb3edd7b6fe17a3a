import { randomBytes } from 'node:crypto';
import type { ErrorDetail, SecretBox } from '@fundi/domain';
import { mailboxAddress, type StoredSmtpSettings, type StoredWhatsAppSettings } from '@fundi/domain/notifications';
import type { TriggerCatalogue } from './trigger-catalogue.js';

export type WhatsAppStored = StoredWhatsAppSettings;

/**
 * The SMTP account of a settings body, checked: every field error goes into `errors` (then null). A password the body
 * leaves out keeps the stored one; a new one is sealed with `box`.
 */
export function smtpOf(
  v: unknown,
  cur: StoredSmtpSettings | null,
  errors: ErrorDetail[],
  box: SecretBox,
): StoredSmtpSettings | null {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    errors.push({ field: 'smtp', message: 'must be an object or null' });
    return null;
  }
  const x = v as Record<string, unknown>;
  const n = errors.length;
  if (typeof x.host !== 'string' || !/^[A-Za-z0-9.-]{1,253}$/.test(x.host))
    errors.push({ field: 'smtp.host', message: 'must be a host name or address' });
  if (!Number.isInteger(x.port) || (x.port as number) < 1 || (x.port as number) > 65535)
    errors.push({ field: 'smtp.port', message: 'must be a port number (1-65535)' });
  if (x.secure !== undefined && typeof x.secure !== 'boolean')
    errors.push({ field: 'smtp.secure', message: 'must be true (TLS from the start, port 465) or false (STARTTLS)' });
  if (x.user !== undefined && x.user !== null && (typeof x.user !== 'string' || x.user.length > 255))
    errors.push({ field: 'smtp.user', message: 'must be a string of at most 255 characters' });
  if (x.password !== undefined && x.password !== null && (typeof x.password !== 'string' || x.password.length > 1024))
    errors.push({ field: 'smtp.password', message: 'must be a string of at most 1,024 characters' });
  try {
    if (typeof x.from !== 'string') throw new Error();
    mailboxAddress(x.from, 'smtp.from');
  } catch {
    errors.push({ field: 'smtp.from', message: 'must be an address, or Name <address>' });
  }
  if (errors.length > n) return null;
  const password =
    x.password === undefined ? (cur?.passwordCiphertext ?? null) : x.password ? box.seal(x.password as string) : null;
  return {
    host: x.host as string,
    port: x.port as number,
    secure: (x.secure as boolean | undefined) ?? x.port === 465,
    user: (x.user as string | null | undefined) ?? null,
    passwordCiphertext: password,
    from: x.from as string,
  };
}

/**
 * The WhatsApp Cloud API account of a settings body, checked like smtpOf: a token or app secret the body leaves out
 * keeps the stored one, and a verify token is made up when there is none.
 */
export function whatsappOf(
  v: unknown,
  cur: WhatsAppStored | null,
  errors: ErrorDetail[],
  box: SecretBox,
  catalogue: Pick<TriggerCatalogue, 'templates'>,
): WhatsAppStored | null {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    errors.push({ field: 'whatsapp', message: 'must be an object or null' });
    return null;
  }
  const x = v as Record<string, unknown>;
  const n = errors.length;
  if (typeof x.phoneNumberId !== 'string' || !/^\d{5,20}$/.test(x.phoneNumberId))
    errors.push({
      field: 'whatsapp.phoneNumberId',
      message: 'must be the phone number id (digits) of the Cloud API',
    });
  const token = x.accessToken ?? (cur ? undefined : null);
  if (
    token === null ||
    (token !== undefined && (typeof token !== 'string' || token.length < 10 || token.length > 4096))
  )
    errors.push({ field: 'whatsapp.accessToken', message: 'is required: the Cloud API access token' });
  const secret = x.appSecret ?? (cur ? undefined : null);
  if (
    secret === null ||
    (secret !== undefined && (typeof secret !== 'string' || secret.length < 8 || secret.length > 256))
  )
    errors.push({ field: 'whatsapp.appSecret', message: 'is required: the app secret that signs callbacks' });
  const baseUrl = x.baseUrl ?? 'https://graph.facebook.com';
  if (typeof baseUrl !== 'string' || !URL.canParse(baseUrl) || !/^https?:$/.test(new URL(baseUrl).protocol))
    errors.push({ field: 'whatsapp.baseUrl', message: 'must be an http(s) URL' });
  const apiVersion = x.apiVersion ?? 'v21.0';
  if (typeof apiVersion !== 'string' || !/^v\d{1,3}\.\d{1,3}$/.test(apiVersion))
    errors.push({ field: 'whatsapp.apiVersion', message: 'must look like v21.0' });
  const verifyToken = x.verifyToken ?? cur?.verifyToken ?? randomBytes(18).toString('base64url');
  if (typeof verifyToken !== 'string' || verifyToken.length < 8 || verifyToken.length > 256)
    errors.push({ field: 'whatsapp.verifyToken', message: 'must be 8 to 256 characters' });
  const templates = waTemplates(x.templates ?? cur?.templates ?? {}, errors, catalogue);
  if (errors.length > n) return null;
  return {
    phoneNumberId: x.phoneNumberId as string,
    baseUrl: (baseUrl as string).replace(/\/+$/, ''),
    apiVersion: apiVersion as string,
    accessTokenCiphertext: token === undefined ? cur!.accessTokenCiphertext : box.seal(token as string),
    appSecretCiphertext: secret === undefined ? cur!.appSecretCiphertext : box.seal(secret as string),
    verifyToken: verifyToken as string,
    templates,
  };
}

/** The approved WhatsApp template (name, language) for each built-in template key. */
function waTemplates(
  v: unknown,
  errors: ErrorDetail[],
  catalogue: Pick<TriggerCatalogue, 'templates'>,
): Record<string, { name: string; language: string }> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    errors.push({ field: 'whatsapp.templates', message: 'must map template keys to {name, language}' });
    return {};
  }
  const out: Record<string, { name: string; language: string }> = {};
  for (const [k, t] of Object.entries(v)) {
    const def = catalogue.templates.find((d) => d.key === k);
    const x = (t ?? {}) as Record<string, unknown>;
    if (!def?.whatsapp)
      errors.push({ field: `whatsapp.templates.${k}`, message: 'is no template with a WhatsApp version' });
    else if (typeof x.name !== 'string' || !/^[a-z0-9_]{1,512}$/.test(x.name))
      errors.push({
        field: `whatsapp.templates.${k}.name`,
        message: 'must be the approved template name (a-z, 0-9, _)',
      });
    else if (typeof x.language !== 'string' || !/^[a-z]{2,3}(_[A-Z]{2})?$/.test(x.language))
      errors.push({ field: `whatsapp.templates.${k}.language`, message: 'must be a language code like en or en_US' });
    else out[k] = { name: x.name, language: x.language };
  }
  return out;
}
