import { DomainError, UNSAFE_TEXT_MESSAGE, isSafeText, type ErrorDetail } from '@fundi/domain';

/**
 * A posted form whose every name and value keeps the API's text rule (docs/api.md, "Text"); otherwise invalid input
 * naming the fields, before any page sees the form, so nothing is written (and no control character reaches the
 * sign-in's rate-limit keys, which Postgres would refuse).
 */
export function safeForm(form: URLSearchParams): URLSearchParams {
  const unsafe: ErrorDetail[] = [];
  for (const [name, value] of form)
    if (!isSafeText(name)) unsafe.push({ field: 'form', message: 'has a field name with a control character' });
    else if (!isSafeText(value)) unsafe.push({ field: name, message: UNSAFE_TEXT_MESSAGE });
  if (unsafe.length) throw DomainError.invalidMany(unsafe);
  return form;
}

/** A page's query parameters keep the text rule too (a search for a NUL would reach the database): else invalid. */
export function safeQuery(query: Record<string, string | string[] | undefined>): void {
  const unsafe: ErrorDetail[] = [];
  for (const [name, value] of Object.entries(query))
    if (!isSafeText(name)) unsafe.push({ field: 'query', message: 'has a parameter name with a control character' });
    else if ([value ?? []].flat().some((v) => !isSafeText(v)))
      unsafe.push({ field: name, message: UNSAFE_TEXT_MESSAGE });
  if (unsafe.length) throw DomainError.invalidMany(unsafe);
}
