import { expiredUrl, invalidUrl } from '../files/signed-url-errors.js';
import type { EvidencePorts } from './evidence-ports.js';

/**
 * Checks a signed download URL (a file or a bundle): the signature for `purpose`, `count` fields that are not empty (tenant first,
 * expiry last), the tenant of the Form B prefix (`tenantSlug`; null in Form A), then the expiry. Answers the fields
 * and the time of the check.
 */
export async function checkSignedUrl(
  d: Pick<EvidencePorts, 'signer' | 'repos' | 'clock'>,
  token: string,
  purpose: string,
  tenantSlug: string | null,
  count: number,
): Promise<{ fields: string[]; now: Date }> {
  const payload = d.signer.verify(token, purpose);
  if (!payload) throw invalidUrl();
  const fields = payload.split('|').slice(0, count);
  if (fields.length < count || fields.some((f) => !f)) throw invalidUrl();
  if (tenantSlug !== null && (await d.repos.tenants.findById(fields[0]!))?.slug !== tenantSlug) throw invalidUrl();
  const now = d.clock.now();
  if (now.getTime() > Number(fields[count - 1])) throw expiredUrl();
  return { fields, now };
}
