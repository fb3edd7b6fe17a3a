import { dayEnd, dayStart } from '../routes/range.js';
import type {
  DrawModerationSample,
  GetAssessment,
  GetModerationSample,
  ListModerationSamples,
  GetModeration,
  ListAssessments,
  ModerateAssessment,
  RecordAssessment,
  SampleForModeration,
} from '@fundi/application/training';
import { IdParams } from '../schemas/common.js';
import {
  AssessmentCreate,
  AssessmentListQuery,
  AssessmentOut,
  ModerationIn,
  ModerationOut,
} from './assessment-schemas.js';
import {
  ModerationSampleOut,
  SampleDrawIn,
  SampleListQuery,
  SampleOut,
  SampleQuery,
} from './moderation-sample-schemas.js';
import { route, type RouteDef } from '../routes/route.js';

export interface AssessmentUseCases {
  recordAssessment: RecordAssessment;
  getAssessment: GetAssessment;
  listAssessments: ListAssessments;
  moderateAssessment: ModerateAssessment;
  getModeration: GetModeration;
  sampleForModeration: SampleForModeration;
  drawModerationSample: DrawModerationSample;
  getModerationSample: GetModerationSample;
  listModerationSamples: ListModerationSamples;
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
    route({
      operationId: 'drawModerationSample',
      summary: 'Draw and record a moderation sample; the moderators are told',
      tag: 'Moderation',
      method: 'post',
      path: '/moderation/samples',
      scope: 'assessments:moderate',
      description:
        'The same sample `GET /moderation/sample` gives for the request, stored with who drew it, and a `moderation.sample_drawn` event (every active moderator gets the `moderation_due` email). The programme is named by `programmeId` or `programmeCode`.',
      body: SampleDrawIn,
      actors: true,
      success: { status: 201, schema: ModerationSampleOut, description: 'The recorded sample' },
      handle: ({ actor, body }) => u.drawModerationSample.execute(actor, body),
    }),
    route({
      operationId: 'listModerationSamples',
      summary: 'List the recorded moderation samples',
      tag: 'Moderation',
      method: 'get',
      path: '/moderation/samples',
      scope: 'assessments:moderate',
      description: "In drawing order; `programmeId` or `programmeCode` keeps one programme's.",
      query: SampleListQuery,
      actors: true,
      list: { item: ModerationSampleOut },
      success: { status: 200, description: 'A page of samples' },
      handle: ({ actor, query, page }) => u.listModerationSamples.execute(actor, query, page),
    }),
    route({
      operationId: 'getModerationSample',
      summary: 'Get a recorded moderation sample',
      tag: 'Moderation',
      method: 'get',
      path: '/moderation/samples/{id}',
      scope: 'assessments:moderate',
      params: IdParams,
      actors: true,
      success: { status: 200, schema: ModerationSampleOut, description: 'The sample' },
      errors: [404],
      handle: ({ actor, params }) => u.getModerationSample.execute(actor, params.id),
    }),
  ];
}
