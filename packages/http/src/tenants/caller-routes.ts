import type { DescribeCaller } from '@fundi/application';
import { ROLES, type AccessPolicy } from '@fundi/domain';
import { Timestamp, z } from '../schemas/common.js';
import { route, type RouteDef } from '../routes/route.js';

const callerOut = (scopes: readonly string[]) =>
  z
    .object({
      key: z.object({
        id: z.string(),
        name: z.string(),
        prefix: z.string().openapi({ description: 'The first characters of the key' }),
        role: z.enum(ROLES),
        scopes: z.array(z.enum(scopes as [string, ...string[]])),
        expiresAt: z
          .string()
          .nullable()
          .openapi({ description: 'Last valid day (UTC), `YYYY-MM-DD`; null = no expiry' }),
        createdAt: Timestamp,
      }),
      tenant: z.object({ id: z.string(), slug: z.string(), name: z.string(), plan: z.string() }),
      limits: z.object({
        perMinute: z.number().int(),
        perDay: z.number().int().nullable(),
        storageBytes: z.number().int().nullable().openapi({ description: 'Evidence storage quota; null = unlimited' }),
      }),
    })
    .openapi('Caller');

/** `GET /me`: what the calling key is and may do (its scopes among every scope of the access policy). */
export function callerRoutes(u: { describeCaller: DescribeCaller; access: AccessPolicy }): RouteDef[] {
  const CallerOut = callerOut(u.access.scopes);
  return [
    route({
      operationId: 'getCaller',
      summary: 'The calling API key: tenant, role, scopes, limits, expiry',
      tag: 'Account',
      method: 'get',
      path: '/me',
      scope: 'any',
      success: { status: 200, schema: CallerOut, description: 'The calling key' },
      handle: ({ actor }) => u.describeCaller.execute(actor),
    }),
  ];
}
