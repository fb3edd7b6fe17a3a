/** Port: signs and checks short-lived tokens in URLs (HMAC over the payload and purpose). */
export interface UrlSigner {
  sign(payload: string, purpose: string): string;
  /** The payload, or null when the token was altered or is not one of ours. */
  verify(token: string, purpose: string): string | null;
}
