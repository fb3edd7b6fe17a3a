import type {
  CreateProgramme,
  DeleteProgramme,
  GetProgramme,
  ListProgrammes,
  RetireProgramme,
  UpdateProgramme,
} from '@fundi/application/training';
import {
  ProgrammeCreate,
  ProgrammeListQuery,
  ProgrammeOut,
  ProgrammeParams,
  ProgrammeUpdate,
} from './programme-schemas.js';
import { route, type RouteDef } from '../routes/route.js';

export interface ProgrammeUseCases {
  createProgramme: CreateProgramme;
  getProgramme: GetProgramme;
  listProgrammes: ListProgrammes;
  updateProgramme: UpdateProgramme;
  retireProgramme: RetireProgramme;
  deleteProgramme: DeleteProgramme;
}

export function programmeRoutes(u: ProgrammeUseCases): RouteDef[] {
  const tag = 'Programmes';
  const byIdOrCode = 'The path takes the programme id, or its code when no id matches.';
  return [
    route({
      operationId: 'listProgrammes',
      summary: 'List programmes',
      tag,
      method: 'get',
      path: '/programmes',
      scope: 'programmes:read',
      query: ProgrammeListQuery,
      list: { item: ProgrammeOut },
      success: { status: 200, description: 'A page of programmes' },
      handle: ({ actor, query, page }) =>
        u.listProgrammes.execute(actor, { status: query.status, type: query.type }, page),
    }),
    route({
      operationId: 'createProgramme',
      summary: 'Add a programme to the catalogue',
      tag,
      method: 'post',
      path: '/programmes',
      scope: 'programmes:write',
      body: ProgrammeCreate,
      success: { status: 201, schema: ProgrammeOut, description: 'The programme' },
      errors: [409],
      handle: ({ actor, body }) => u.createProgramme.execute(actor, body),
    }),
    route({
      operationId: 'getProgramme',
      summary: 'Get a programme',
      description: byIdOrCode,
      tag,
      method: 'get',
      path: '/programmes/{id}',
      scope: 'programmes:read',
      params: ProgrammeParams,
      success: { status: 200, schema: ProgrammeOut, description: 'The programme' },
      errors: [404],
      handle: ({ actor, params }) => u.getProgramme.execute(actor, params.id),
    }),
    route({
      operationId: 'updateProgramme',
      summary: 'Update a programme (partial)',
      tag,
      method: 'patch',
      path: '/programmes/{id}',
      scope: 'programmes:write',
      description: `${byIdOrCode} The code never changes. \`modules\` replaces the list: adding and renaming are always allowed; removing a module that has assessments is 409.`,
      params: ProgrammeParams,
      body: ProgrammeUpdate,
      success: { status: 200, schema: ProgrammeOut, description: 'The programme' },
      errors: [404, 409],
      handle: ({ actor, params, body }) => u.updateProgramme.execute(actor, params.id, body),
    }),
    route({
      operationId: 'retireProgramme',
      summary: 'Retire a programme',
      tag,
      method: 'post',
      path: '/programmes/{id}/retire',
      scope: 'programmes:write',
      description: `${byIdOrCode} A retired programme takes no new enrolments but still shows. Retiring twice changes nothing.`,
      params: ProgrammeParams,
      success: { status: 200, schema: ProgrammeOut, description: 'The retired programme' },
      errors: [404],
      handle: ({ actor, params }) => u.retireProgramme.execute(actor, params.id),
    }),
    route({
      operationId: 'deleteProgramme',
      summary: 'Delete an unused programme',
      tag,
      method: 'delete',
      path: '/programmes/{id}',
      scope: 'programmes:delete',
      description: `${byIdOrCode} Only while no enrolment uses it (else 409: retire it instead).`,
      params: ProgrammeParams,
      success: { status: 204, description: 'Deleted' },
      errors: [404, 409],
      handle: ({ actor, params }) => u.deleteProgramme.execute(actor, params.id),
    }),
  ];
}
