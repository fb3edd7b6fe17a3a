import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { z } from '../schemas/common.js';
import type { ApiForm } from '../forms/form.js';
import type { RouteDef } from '../routes/route.js';
import { registerCommon } from './common-parts.js';
import { requestBody } from './request-body.js';
import { registerFormAnswers } from './form-answers.js';
import { responsesFor } from './responses.js';

/** One OpenAPI 3.1 document for both forms, walked from the same route list that serves them. */
export function buildOpenApi(
  routes: readonly RouteDef[],
  forms: { a: ApiForm; b: ApiForm },
  extend?: (reg: OpenAPIRegistry) => void,
): object {
  const registry = new OpenAPIRegistry();
  registerCommon(registry);
  for (const form of [forms.a, forms.b]) {
    const errorRef = registry.register(`Error${form.name}`, form.errorSchema);
    const answers = registerFormAnswers(registry, form);
    const formParams = form.openApiPathParams;
    for (const m of form.openApiMounts) {
      for (const r of routes) {
        const params = formParams ? (r.params ? formParams.extend(r.params.shape) : formParams) : r.params;
        const body = requestBody(r);
        const query = r.list ? (r.query ?? z.object({})).extend(form.pageQuery.shape) : r.query;
        registry.registerPath({
          method: r.method,
          path: `${m.prefix}${r.path}`,
          operationId: `${r.operationId}${m.suffix}`,
          summary: r.summary,
          description: [
            r.description,
            `Form ${form.name}. ${r.auth === 'none' ? 'No API key: the signed URL is the credential.' : r.scope === 'any' ? 'Any valid API key.' : `Requires scope \`${r.scope}\`.`}`,
          ]
            .filter(Boolean)
            .join('\n\n'),
          tags: [r.tag],
          security: r.auth === 'none' ? [] : [{ bearerAuth: [] }],
          request: {
            ...(params ? { params } : {}),
            ...(query ? { query } : {}),
            ...(body ? { body } : {}),
          },
          responses: responsesFor(r, form, errorRef, answers),
        });
      }
    }
  }
  extend?.(registry);
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Fundi API',
      version: '1.0.0-beta',
      description:
        'Learner, enrolment, assessment and evidence management for South African skills-development providers. ' +
        'Form A (`/api/v1/...`) takes the tenant from the API key and pages by cursor; Form B (`/api/v1/tenants/{slug}/...` ' +
        'and its alias `/v1/tenants/{slug}/...`, served identically but not listed again here) names the tenant in the path ' +
        'and pages by offset. Both forms serve every operation.',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: '/', description: 'This server' }],
    tags: [...new Set(routes.map((r) => r.tag))].map((name) => ({ name, description: `${name} operations` })),
    security: [{ bearerAuth: [] }],
  });
}
