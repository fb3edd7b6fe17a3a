import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from '../schemas/common.js';

export function registerCommon(registry: OpenAPIRegistry): void {
  registry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    description: 'API key: `Authorization: Bearer fnd_live_...`',
  });
}

/** The rate-limit headers every response carries (docs/api.md, "Rate limits"). */
export function rateLimitHeaders() {
  return {
    'X-RateLimit-Limit': {
      description: 'Requests allowed in the window nearest to exhaustion',
      schema: { type: 'integer' as const },
    },
    'X-RateLimit-Remaining': { description: 'Requests left in that window', schema: { type: 'integer' as const } },
    'X-RateLimit-Reset': {
      description: 'Unix epoch seconds at which that window resets',
      schema: { type: 'integer' as const },
    },
    'X-Request-Id': {
      description: 'Request identifier, echoed from the request or generated',
      schema: { type: 'string' as const },
    },
  };
}

export { z };
