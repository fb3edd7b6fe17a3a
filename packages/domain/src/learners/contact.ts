import { DomainError } from '../common/errors.js';

export type Email = string & { readonly __brand: 'Email' };
export type Mobile = string & { readonly __brand: 'Mobile' };

// Pragmatic address check: one @, a dotted domain, no spaces; the mailbox itself is verified by sending.
const EMAIL =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

export const Email = {
  parse(value: unknown, field = 'email'): Email {
    if (typeof value !== 'string' || value.length > 254 || !EMAIL.test(value.trim())) {
      throw DomainError.invalid(field, 'must be a valid email address', 'invalid_email');
    }
    return value.trim() as Email;
  },
};

const SA_MOBILE = /^(?:\+27|0)[678]\d{8}$/;

/** SA numbers: E.164 `+27` + 9 digits; the national form `0` + 9 digits is accepted and normalised. */
export const Mobile = {
  parse(value: unknown, field = 'mobile'): Mobile {
    const compact = typeof value === 'string' ? value.replace(/[\s()-]/g, '') : '';
    // Tested, not matched: no match array a number (an import reads 100,000); the 9 digits are the last 9.
    if (!SA_MOBILE.test(compact)) {
      throw DomainError.invalid(
        field,
        'must be a South African mobile number: +27 followed by 9 digits (6x, 7x or 8x), or the national form 0XXXXXXXXX',
        'invalid_mobile',
      );
    }
    return `+27${compact.slice(-9)}` as Mobile;
  },
};
