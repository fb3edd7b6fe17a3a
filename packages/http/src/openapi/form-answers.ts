import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import type { ApiForm } from '../forms/form.js';
import { rateLimitHeaders } from './common-parts.js';

/** A response component by reference. */
type Ref = { $ref: string };

/** The answers a form may give to any request before its operation runs, as response components. */
export interface FormAnswers {
  methodNotAllowed: Ref;
  headersTooLarge: Ref;
}

/**
 * Registers the form's answers that come before any operation (docs/api.md, "Two API forms"): 405 for a method a
 * known path does not take (after the key check, so with the rate-limit headers, and `Allow`), and 431 for
 * headers over Node's limit, refused before routing (so without them).
 */
export function registerFormAnswers(registry: OpenAPIRegistry, form: ApiForm): FormAnswers {
  const error = { 'application/json': { schema: { $ref: `#/components/schemas/Error${form.name}` } } };
  const methodNotAllowed = registry.registerComponent('responses', `MethodNotAllowed${form.name}`, {
    description: `The path exists but does not take the request's method (Form ${form.name})`,
    headers: {
      ...rateLimitHeaders(),
      Allow: { description: 'The methods the path takes', required: true, schema: { type: 'string' } },
    },
    content: error,
  });
  const headersTooLarge = registry.registerComponent('responses', `HeadersTooLarge${form.name}`, {
    description: `The request's headers exceed 16 KB; refused before routing (Form ${form.name})`,
    content: error,
  });
  return { methodNotAllowed: methodNotAllowed.ref, headersTooLarge: headersTooLarge.ref };
}
