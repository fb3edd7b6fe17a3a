import type { StaffField, StaffUseCases } from '@fundi/application/staff';
import { route, type RouteDef } from '../routes/route.js';
import { IdParams, Timestamp, z } from '../schemas/common.js';
import { fieldShape } from './user-fields.js';

const tag = 'Users';
const ROLES = ['admin', 'manager', 'assessor', 'moderator', 'facilitator', 'viewer', 'integration'] as const;

/**
 * The users' schemas: a staff user's own properties, with those of the fields other capabilities add (`staffFields`,
 * `fieldShape`) after the role in the bodies and after the status in the answer.
 */
function userSchemas(fields: readonly StaffField[]) {
  const UserIn = z
    .object({
      name: z.string().max(200).openapi({ example: 'Sipho Dlamini' }),
      email: z.string().max(320).openapi({ example: 'sipho@ubuntu-skills.example' }),
      mobile: z.string().max(30).nullable().optional().openapi({ description: 'SA mobile, stored as +27...' }),
      role: z.enum(ROLES),
      ...fieldShape(fields, 'in'),
    })
    .strict()
    .openapi('UserCreate');

  const UserPatch = z
    .object({
      name: z.string().max(200).optional(),
      email: z.string().max(320).optional(),
      mobile: z.string().max(30).nullable().optional(),
      role: z.enum(ROLES).optional(),
      ...fieldShape(fields, 'patch'),
    })
    .strict()
    .openapi('UserUpdate');

  const UserOut = z
    .object({
      id: z.string().openapi({ example: 'usr_01jd2x9k3m4n5p6q7r8s9t0v1w' }),
      name: z.string(),
      email: z.string(),
      mobile: z.string().nullable(),
      role: z.enum(ROLES),
      status: z.enum(['active', 'disabled']),
      ...fieldShape(fields, 'out'),
      hasPassword: z.boolean().openapi({ description: 'Has set a dashboard password (after the invitation)' }),
      createdAt: Timestamp,
      updatedAt: Timestamp,
    })
    .openapi('User');
  return { UserIn, UserPatch, UserOut };
}

const UserListQuery = z
  .object({ role: z.enum(ROLES).optional(), status: z.enum(['active', 'disabled']).optional() })
  .strict();

/** The staff directory (docs/api.md, "Users"). */
export function userRoutes(u: StaffUseCases): RouteDef[] {
  const { UserIn, UserPatch, UserOut } = userSchemas(u.fields);
  return [
    route({
      operationId: 'createUser',
      summary: 'Add a staff user (they are invited by email to set a dashboard password)',
      tag,
      method: 'post',
      path: '/users',
      scope: 'users:write',
      body: UserIn,
      success: { status: 201, schema: UserOut, description: 'The user' },
      errors: [409],
      handle: ({ actor, body }) => u.createUser.execute(actor, body),
    }),
    route({
      operationId: 'listUsers',
      summary: 'List staff users',
      tag,
      method: 'get',
      path: '/users',
      scope: 'users:read',
      query: UserListQuery,
      list: { item: UserOut },
      success: { status: 200, description: 'A page of users' },
      handle: ({ actor, query, page }) => u.listUsers.execute(actor, query, page),
    }),
    route({
      operationId: 'getUser',
      summary: 'A staff user',
      tag,
      method: 'get',
      path: '/users/{id}',
      scope: 'users:read',
      params: IdParams,
      success: { status: 200, schema: UserOut, description: 'The user' },
      errors: [404],
      handle: ({ actor, params }) => u.getUser.execute(actor, params.id),
    }),
    route({
      operationId: 'updateUser',
      summary: 'Change a staff user',
      tag,
      method: 'patch',
      path: '/users/{id}',
      scope: 'users:write',
      params: IdParams,
      body: UserPatch,
      success: { status: 200, schema: UserOut, description: 'The user' },
      errors: [404, 409],
      handle: ({ actor, params, body }) => u.updateUser.execute(actor, params.id, body),
    }),
    route({
      operationId: 'deactivateUser',
      summary: 'Deactivate a staff user: no notifications, no sign-in, sessions end',
      tag,
      method: 'post',
      path: '/users/{id}/deactivate',
      scope: 'users:write',
      params: IdParams,
      success: { status: 200, schema: UserOut, description: 'The user' },
      errors: [404],
      handle: ({ actor, params }) => u.setUserStatus.execute(actor, params.id, 'disabled'),
    }),
    route({
      operationId: 'activateUser',
      summary: 'Activate a deactivated staff user again',
      tag,
      method: 'post',
      path: '/users/{id}/activate',
      scope: 'users:write',
      params: IdParams,
      success: { status: 200, schema: UserOut, description: 'The user' },
      errors: [404],
      handle: ({ actor, params }) => u.setUserStatus.execute(actor, params.id, 'active'),
    }),
  ];
}
