import { dayEnd, dayStart } from './range.js';
import type {
  GetAssessment,
  GetModeration,
  ListAssessments,
  ModerateAssessment,
  RecordAssessment,
  SampleForModeration,
} from '@fundi/application';
import { IdParams } from '../schemas/common.js';
import {
  AssessmentCreate,
  AssessmentListQuery,
  AssessmentOut,
  ModerationIn,
  ModerationOut,
  SampleOut,
  SampleQuery,
} from '../schemas/assessment-schemas.js';
import { route, type RouteDef } from './route.js';

export interface AssessmentUseCases {
  recordAssessment: RecordAssessment;
  getAssessment: GetAssessment;
  listAssessments: ListAssessments;
  moderateAssessment: ModerateAssessment;
  getModeration: GetModeration;
  sampleForModeration: SampleForModeration;
}

export function assessmentRoutes(u: AssessmentUseCases): RouteDef[] {
  const tag = 'Assessments';
  return [
    route({
      operationId: 'listAssessments',
      summary: 'List assessments',
      tag,
      method: 'get',
      path: '/assessments',
      scope: 'assessments:read',
      query: AssessmentListQuery,
      actors: true,
      list: { item: AssessmentOut },
      success: { status: 200, description: 'A page of assessments' },
      handle: ({ actor, query, page }) =>
        u.listAssessments.execute(
          actor,
          { ...query, updatedFrom: dayStart(query.updatedFrom), updatedTo: dayEnd(query.updatedTo) },
          page,
        ),
    }),
    route({
      operationId: 'recordAssessment',
      summary: 'Record a module result',
      tag,
      method: 'post',
      path: '/assessments',
      scope: 'assessments:write',
      description:
        'The module must belong to a programme the learner has an open enrolment in (the most recent one, unless `enrolmentId` picks one). A re-assessment is a new record; the latest summative one counts for progress.',
      body: AssessmentCreate,
      actors: true,
      success: { status: 201, schema: AssessmentOut, description: 'The recorded assessment' },
      handle: ({ actor, body }) => u.recordAssessment.execute(actor, body),
    }),
    route({
      operationId: 'getAssessment',
      summary: 'Get an assessment',
      tag,
      method: 'get',
      path: '/assessments/{id}',
      scope: 'assessments:read',
      params: IdParams,
      actors: true,
      success: { status: 200, schema: AssessmentOut, description: 'The assessment with its moderation' },
      errors: [404],
      handle: ({ actor, params }) => u.getAssessment.execute(actor, params.id),
    }),
    route({
      operationId: 'moderateAssessment',
      summary: 'Moderate an assessment',
      tag: 'Moderation',
      method: 'post',
      path: '/assessments/{id}/moderation',
      scope: 'assessments:moderate',
      description:
        'One moderation per assessment (409 for a second). The moderator may not be the assessor (403 `moderator_is_assessor`). An overturned result counts flipped for progress; both records are kept.',
      params: IdParams,
      body: ModerationIn,
      actors: true,
      success: { status: 201, schema: ModerationOut, description: 'The moderation' },
      errors: [404, 409],
      handle: ({ actor, params, body }) => u.moderateAssessment.execute(actor, params.id, body),
    }),
    route({
      operationId: 'getModeration',
      summary: 'Get the moderation of an assessment',
      tag: 'Moderation',
      method: 'get',
      path: '/assessments/{id}/moderation',
      scope: 'assessments:read',
      description: '404 when the assessment is unknown or not moderated yet.',
      params: IdParams,
      actors: true,
      success: { status: 200, schema: ModerationOut, description: 'The moderation' },
      errors: [404],
      handle: ({ actor, params }) => u.getModeration.execute(actor, params.id),
    }),
    route({
      operationId: 'moderationSample',
      summary: 'Reproducible sample of summative assessments for internal moderation',
      tag: 'Moderation',
      method: 'get',
      path: '/moderation/sample',
      scope: 'assessments:moderate',
      description:
        "ceil(percent% of the programme's summative assessments dated in [from, to]), chosen by a hash seeded from the normalised request: the same request gives the same sample.",
      query: SampleQuery,
      actors: true,
      success: { status: 200, schema: SampleOut, description: 'The sample' },
      handle: ({ actor, query }) => u.sampleForModeration.execute(actor, query),
    }),
  ];
}
