import { DomainError } from '@fundi/domain';
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';

/**
 * A mobile number as a person writes it (`082 123 4567`, `+44 7911 123456`) in E.164 (`+27821234567`); a number
 * without a country code is read in `region`. The full metadata tells mobiles from landlines; numbers a country
 * does not distinguish (`FIXED_LINE_OR_MOBILE`, as in North America) are accepted.
 */
const SA_MOBILE_E164 = /^\+27[6-8]\d{8}$/;

export function toE164Mobile(value: string, region: CountryCode = 'ZA', field = 'to'): string {
  // Already in the form the learner and user records store (a South African mobile range, E.164): as it is. The
  // full parse costs about 25 µs a number, a tenth of a WhatsApp send.
  if (SA_MOBILE_E164.test(value)) return value;
  const n = parsePhoneNumberFromString(value, region);
  const type = n?.isValid() ? n.getType() : undefined;
  if (!n || (type !== 'MOBILE' && type !== 'FIXED_LINE_OR_MOBILE')) {
    throw DomainError.invalid(
      field,
      `is not a valid mobile number (read as ${region} when it has no country code)`,
      'invalid_mobile',
    );
  }
  return n.number;
}
