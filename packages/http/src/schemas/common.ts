import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { ACTOR_TYPES } from '@fundi/application';
import { isRealDate } from '@fundi/domain';
import { z } from 'zod';

extendZodWithOpenApi(z);

export { z };

/** Path parameter `{id}`. */
export const IdParams = z.object({
  id: z
    .string()
    .min(1)
    .max(64)
    .openapi({ description: 'Resource identifier', example: 'lrn_01jd2x9k3m4n5p6q7r8s9t0v1w' }),
});

export const IsoDateString = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date in the form YYYY-MM-DD')
  .openapi({ format: 'date', example: '2026-03-01' });

/** ISO 8601 date or date-time, used for range filters. */
export const Instant = z
  .string()
  .regex(
    /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?)?$/,
    'must be an ISO 8601 date or date-time',
  )
  .refine(
    (v) =>
      isRealDate(Number(v.slice(0, 4)), Number(v.slice(5, 7)), Number(v.slice(8, 10))) && !Number.isNaN(Date.parse(v)),
    'must be a real date',
  )
  .openapi({ example: '2026-03-01T00:00:00Z' });

export const Timestamp = z.string().openapi({ format: 'date-time', example: '2026-03-01T08:30:00.000Z' });

/** The answer of a signed download link (evidence, export files, statements), under the name its resource gives it. */
export const downloadGrant = (name: string) =>
  z
    .object({
      url: z.string().openapi({ description: 'Signed; lives 3600 s; no API key needed' }),
      expiresAt: Timestamp,
      filename: z.string(),
      contentType: z.string(),
      size: z.number().int(),
    })
    .openapi(name);

/** Who did something (docs/api.md, "Who did it"): one shape wherever a response names an actor. */
export const ActorOut = z
  .object({
    type: z
      .enum(ACTOR_TYPES)
      .openapi({ description: '`api_key`, a dashboard `user`, or the service itself (`system`)' }),
    id: z.string().openapi({ example: 'key_01jd2x9k3m4n5p6q7r8s9t0v1w' }),
    name: z.string().nullable().openapi({ description: "The key's or user's name; null when it no longer exists" }),
  })
  .openapi('Actor');

/** An actor or null (a union, so the `Actor` component itself stays non-nullable for generated clients). */
export const ActorOrNull = z.union([ActorOut, z.null()]);

/** The signed token of a download or link URL (`/files/.../{token}`). */
export const TokenParams = z.object({
  token: z.string().min(10).max(400).openapi({ description: 'The signed token of the URL' }),
});
