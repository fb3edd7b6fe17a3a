import type { LogbookUseCases } from '@fundi/application';
import type { LogbookInput } from '@fundi/domain';
import { IdParams } from '../schemas/common.js';
import {
  LogbookCreate,
  LogbookHoursList,
  LogbookListQuery,
  LogbookOut,
  LogbookUpdate,
} from '../schemas/logbook-schemas.js';
import { route, type RouteDef } from './route.js';

/** Workplace logbook entries (docs/api.md, "Logbooks"). */
export function logbookRoutes(u: LogbookUseCases): RouteDef[] {
  const tag = 'Logbooks';
  return [
    route({
      operationId: 'listLogbookEntries',
      summary: 'List logbook entries',
      tag,
      method: 'get',
      path: '/logbook-entries',
      scope: 'logbooks:read',
      query: LogbookListQuery,
      list: { item: LogbookOut },
      success: { status: 200, description: 'A page of logbook entries' },
      handle: ({ actor, query, page }) => u.entries.list(actor, query, page),
    }),
    route({
      operationId: 'createLogbookEntry',
      summary: 'Record a logbook entry (a draft) for a workplace module',
      tag,
      method: 'post',
      path: '/logbook-entries',
      scope: 'logbooks:write',
      body: LogbookCreate,
      success: { status: 201, schema: LogbookOut, description: 'The entry, a draft' },
      handle: ({ actor, body }) => u.entries.create(actor, body as LogbookInput),
    }),
    route({
      operationId: 'getLogbookEntry',
      summary: 'Get a logbook entry',
      tag,
      method: 'get',
      path: '/logbook-entries/{id}',
      scope: 'logbooks:read',
      params: IdParams,
      success: { status: 200, schema: LogbookOut, description: 'The entry' },
      errors: [404],
      handle: ({ actor, params }) => u.entries.get(actor, params.id),
    }),
    route({
      operationId: 'updateLogbookEntry',
      summary: 'Change a logbook entry until it is signed (a submitted or queried entry returns to draft)',
      tag,
      method: 'patch',
      path: '/logbook-entries/{id}',
      scope: 'logbooks:write',
      params: IdParams,
      body: LogbookUpdate,
      success: { status: 200, schema: LogbookOut, description: 'The changed entry' },
      errors: [404, 409],
      handle: ({ actor, params, body }) => u.entries.update(actor, params.id, body as LogbookInput),
    }),
    route({
      operationId: 'deleteLogbookEntry',
      summary: 'Delete a logbook entry that is not signed',
      tag,
      method: 'delete',
      path: '/logbook-entries/{id}',
      scope: 'logbooks:delete',
      params: IdParams,
      success: { status: 204, description: 'Deleted' },
      errors: [404, 409],
      handle: ({ actor, params }) => u.entries.remove(actor, params.id),
    }),
    route({
      operationId: 'submitLogbookEntry',
      summary: "Submit a logbook entry for the supervisor's sign-off (sends them a signed link)",
      tag,
      method: 'post',
      path: '/logbook-entries/{id}/submit',
      scope: 'logbooks:write',
      params: IdParams,
      success: { status: 200, schema: LogbookOut, description: 'The entry, submitted' },
      errors: [404, 409],
      handle: ({ actor, params }) => u.entries.submit(actor, params.id),
    }),
    route({
      operationId: 'getLogbookHours',
      summary: "A learner's hours per workplace module: logged, signed, required",
      tag,
      method: 'get',
      path: '/learners/{id}/logbook-hours',
      scope: 'logbooks:read',
      params: IdParams,
      success: { status: 200, schema: LogbookHoursList, description: 'Hours per workplace module' },
      errors: [404],
      handle: async ({ actor, params }) => ({ data: await u.progress.forLearner(actor, params.id) }),
    }),
  ];
}
