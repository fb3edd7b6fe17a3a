import { DomainError, type ErrorDetail } from '@fundi/domain';

/**
 * A list filter's date ranges, checked together: each `[from, to]` pair of keys whose two values are both given
 * must not run backwards. One reversed range is the field error `<to>: must not be before <from>`; several are
 * reported in one answer, like any other set of invalid fields (docs/api.md, "Errors").
 */
export function checkRanges<F extends object>(
  filter: F,
  pairs: readonly (readonly [keyof F & string, keyof F & string])[],
): void {
  const details: ErrorDetail[] = [];
  for (const [from, to] of pairs) {
    const a = filter[from];
    const b = filter[to];
    if (a && b && a > b) details.push({ field: to, message: `must not be before ${from}` });
  }
  if (details.length === 1) throw DomainError.invalid(details[0]!.field, details[0]!.message);
  if (details.length > 1) throw DomainError.invalidMany(details);
}
