import { DomainError } from '@fundi/domain';
import { AddressGuard, BlockedAddressError, systemResolver, type Resolver } from './address-guard.js';

/**
 * The check made when a receiver URL is set (create, update): a literal address or a host name that resolves,
 * now, to a forbidden address is invalid input on `url`. A name that does not resolve yet is accepted: delivery
 * resolves and checks again at connect time.
 */
export function receiverCheck(
  allowHosts: readonly string[],
  resolve: Resolver = systemResolver,
): (url: string) => Promise<void> {
  const guard = new AddressGuard(allowHosts, async (host) => {
    try {
      return await resolve(host);
    } catch {
      return [];
    }
  });
  return async (url) => {
    try {
      await guard.check(new URL(url).hostname);
    } catch (e) {
      if (!(e instanceof BlockedAddressError) || /has no address$/.test(e.message)) return;
      throw DomainError.invalid('url', 'points to a private, loopback, link-local or reserved address');
    }
  };
}
