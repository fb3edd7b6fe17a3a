import {
  type EraseLearner,
  type GetLearner,
  LEARNER_VIEW_FIELDS,
  type ListLearners,
  type RegisterLearner,
  type UpdateLearner,
} from '@fundi/application/learners';
import type { LearnerInput } from '@fundi/domain/learners';
import { IdParams } from '../schemas/common.js';
import { LearnerCreate, LearnerListQuery, LearnerOut, LearnerUpdate } from './learner-schemas.js';
import { route, type RouteDef } from '../routes/route.js';
import { dayEnd, dayStart } from '../routes/range.js';
import { jsonWriter } from '../json-writer.js';

/** A learner's answer (`learnerView`) as JSON: the text JSON.stringify gives, written by a compiled writer. */
export const learnerJson = jsonWriter(LEARNER_VIEW_FIELDS);

export interface LearnerUseCases {
  registerLearner: RegisterLearner;
  getLearner: GetLearner;
  listLearners: ListLearners;
  updateLearner: UpdateLearner;
  eraseLearner: EraseLearner;
}

export function learnerRoutes(u: LearnerUseCases): RouteDef[] {
  const tag = 'Learners';
  return [
    route({
      operationId: 'listLearners',
      summary: 'List learners',
      tag,
      method: 'get',
      path: '/learners',
      scope: 'learners:read',
      query: LearnerListQuery,
      list: { item: LearnerOut },
      success: { status: 200, description: 'A page of learners' },
      handle: ({ actor, query, page }) =>
        u.listLearners.execute(
          actor,
          {
            search: query.search,
            employeeRef: query.employeeRef,
            createdFrom: dayStart(query.createdFrom),
            createdTo: dayEnd(query.createdTo),
            updatedFrom: dayStart(query.updatedFrom),
            updatedTo: dayEnd(query.updatedTo),
          },
          page,
        ),
    }),
    route({
      operationId: 'createLearner',
      summary: 'Register a learner',
      tag,
      method: 'post',
      path: '/learners',
      scope: 'learners:write',
      body: LearnerCreate,
      success: { status: 201, schema: LearnerOut, description: 'The registered learner' },
      json: learnerJson,
      errors: [409],
      handle: ({ actor, body }) => u.registerLearner.execute(actor, body as LearnerInput),
    }),
    route({
      operationId: 'getLearner',
      summary: 'Get a learner',
      tag,
      method: 'get',
      path: '/learners/{id}',
      scope: 'learners:read',
      params: IdParams,
      success: { status: 200, schema: LearnerOut, description: 'The learner' },
      json: learnerJson,
      errors: [404],
      handle: ({ actor, params }) => u.getLearner.execute(actor, params.id),
    }),
    route({
      operationId: 'updateLearner',
      summary: 'Update a learner (partial)',
      tag,
      method: 'patch',
      path: '/learners/{id}',
      scope: 'learners:write',
      params: IdParams,
      body: LearnerUpdate,
      success: { status: 200, schema: LearnerOut, description: 'The updated learner' },
      json: learnerJson,
      errors: [404, 409],
      handle: ({ actor, params, body }) => u.updateLearner.execute(actor, params.id, body as LearnerInput),
    }),
    route({
      operationId: 'eraseLearner',
      summary: 'Erase a learner (POPIA)',
      description:
        'Data-protection erasure: personal data is removed irreversibly and the learner is 404 afterwards; anonymised enrolment and assessment facts and an audit record are kept. ' +
        "The learner's `learner.created`/`learner.updated` events are redacted to `{id, erased: true}` in the same transaction, so later deliveries, retries and replays send only that.",
      tag,
      method: 'delete',
      path: '/learners/{id}',
      scope: 'learners:delete',
      params: IdParams,
      success: { status: 204, description: 'Erased' },
      errors: [404],
      handle: ({ actor, params }) => u.eraseLearner.execute(actor, params.id),
    }),
  ];
}
