import type {
  ChangeEnrolmentStatus,
  EnrolLearner,
  GetEnrolment,
  GetEnrolmentHistory,
  ListEnrolments,
} from '@fundi/application/training';
import { pageOf } from '@fundi/domain';
import { IdParams } from '../schemas/common.js';
import {
  EnrolmentCreate,
  EnrolmentListQuery,
  EnrolmentOut,
  StatusChangeIn,
  StatusChangeOut,
} from './enrolment-schemas.js';
import { route, type RouteDef } from '../routes/route.js';
import { dayEnd, dayStart } from '../routes/range.js';

export interface EnrolmentUseCases {
  enrolLearner: EnrolLearner;
  getEnrolment: GetEnrolment;
  listEnrolments: ListEnrolments;
  changeEnrolmentStatus: ChangeEnrolmentStatus;
  getEnrolmentHistory: GetEnrolmentHistory;
}

export function enrolmentRoutes(u: EnrolmentUseCases): RouteDef[] {
  const tag = 'Enrolments';
  return [
    route({
      operationId: 'listEnrolments',
      summary: 'List enrolments',
      tag,
      method: 'get',
      path: '/enrolments',
      scope: 'enrolments:read',
      query: EnrolmentListQuery,
      list: { item: EnrolmentOut },
      success: { status: 200, description: 'A page of enrolments with their progress' },
      handle: ({ actor, query, page }) =>
        u.listEnrolments.execute(
          actor,
          { ...query, updatedFrom: dayStart(query.updatedFrom), updatedTo: dayEnd(query.updatedTo) },
          page,
        ),
    }),
    route({
      operationId: 'createEnrolment',
      summary: 'Enrol a learner in a programme',
      tag,
      method: 'post',
      path: '/enrolments',
      scope: 'enrolments:write',
      description:
        'An unknown learner or programme code is invalid input; a retired programme or an open enrolment of the learner in the programme is 409.',
      body: EnrolmentCreate,
      success: { status: 201, schema: EnrolmentOut, description: 'The enrolment, status enrolled' },
      errors: [409],
      handle: ({ actor, body }) => u.enrolLearner.execute(actor, body),
    }),
    route({
      operationId: 'getEnrolment',
      summary: 'Get an enrolment with its progress',
      tag,
      method: 'get',
      path: '/enrolments/{id}',
      scope: 'enrolments:read',
      params: IdParams,
      success: { status: 200, schema: EnrolmentOut, description: 'The enrolment' },
      errors: [404],
      handle: ({ actor, params }) => u.getEnrolment.execute(actor, params.id),
    }),
    route({
      operationId: 'changeEnrolmentStatus',
      summary: 'Move an enrolment to another status',
      tag,
      method: 'patch',
      path: '/enrolments/{id}/status',
      scope: 'enrolments:write',
      description:
        'An illegal move is 409 with `currentStatus` and `requestedStatus`; `completed` without a competent summative result for every module is 409 with `missingModules`.',
      params: IdParams,
      body: StatusChangeIn,
      success: { status: 200, schema: EnrolmentOut, description: 'The enrolment after the move' },
      errors: [404, 409],
      handle: ({ actor, params, body }) => u.changeEnrolmentStatus.execute(actor, params.id, body),
    }),
    route({
      operationId: 'getEnrolmentHistory',
      actors: true,
      summary: 'Status history of an enrolment',
      tag,
      method: 'get',
      path: '/enrolments/{id}/history',
      scope: 'enrolments:read',
      description:
        'Every status change, oldest first, with who (API key id), when and why; the first row is the enrolment itself.',
      params: IdParams,
      // Change ids sort by creation time, so the history's order is the list's id order.
      list: { item: StatusChangeOut },
      success: { status: 200, description: 'A page of status changes, oldest first' },
      errors: [404],
      handle: async ({ actor, params, page }) =>
        pageOf((await u.getEnrolmentHistory.execute(actor, params.id)).changes, page),
    }),
  ];
}
