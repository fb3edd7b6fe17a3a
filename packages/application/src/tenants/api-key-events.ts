/** Internal event (no webhook event type) on API key changes: the security alert notification reacts to it. */
export const SECURITY_EVENT = 'security.api_key_changed';
