import { createHash } from 'node:crypto';

/** A one-time set-password link lives this long. */
export const SET_PASSWORD_HOURS = 72;

/** How a set-password token or session token is stored: its SHA-256, base64url. */
export const sha256 = (s: string) => createHash('sha256').update(s).digest('base64url');
