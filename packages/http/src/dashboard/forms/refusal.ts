import { isDomainError } from '@fundi/domain';
import { describe } from '../../tenants/api-key-pages.js';

/**
 * The words of a refusal the form shows back beside what was typed (invalid input, a conflict, a precondition such
 * as the modules still missing before an enrolment completes); anything else is rethrown for the error page.
 */
export function refusal(e: unknown): string {
  if (isDomainError(e) && (e.kind === 'invalid' || e.kind === 'conflict' || e.kind === 'precondition'))
    return describe(e);
  throw e;
}
