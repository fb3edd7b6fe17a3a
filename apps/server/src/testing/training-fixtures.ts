import { idNumberFor } from '@fundi/domain/testing';
import { expect } from 'vitest';
import type { TestServer } from './test-server.js';

export { idNumberFor };

export function programmeBody(code: string, modules = ['KM-01', 'PM-01', 'WM-01']): Record<string, unknown> {
  const kinds = ['knowledge', 'practical', 'workplace'];
  return {
    code,
    name: `Programme ${code}`,
    type: 'skills_programme',
    qualificationId: '91761',
    nqfLevel: 4,
    modules: modules.map((m, i) => ({ code: m, name: `Module ${m}`, kind: kinds[i % 3], credits: 10 })),
  };
}

/** A learner, a programme and an enrolment in it (status enrolled), created through the API of `prefix`. */
export async function enrolledLearner(
  s: TestServer,
  key: string,
  prefix: string,
  opts: { code: string; idNumber: string; modules?: string[]; startDate?: string },
) {
  const learner = await s.call('POST', `${prefix}/learners`, key, {
    firstName: 'Thandi',
    lastName: 'Nkosi',
    idNumber: opts.idNumber,
  });
  expect(learner.status).toBe(201);
  const programme = await s.call('POST', `${prefix}/programmes`, key, programmeBody(opts.code, opts.modules));
  expect(programme.status).toBe(201);
  const enrolment = await s.call('POST', `${prefix}/enrolments`, key, {
    learnerId: learner.body.id,
    programmeCode: opts.code,
    startDate: opts.startDate ?? '2026-01-10',
  });
  expect(enrolment.status).toBe(201);
  return { learnerId: learner.body.id as string, programme: programme.body, enrolment: enrolment.body };
}

/**
 * A new learner (`firstName` with `lastName`, the n-th test ID number from 7000) enrolled through `/api/v1` in an
 * existing programme; the learner's and the enrolment's ids.
 */
export async function learnerEnrolledIn(
  s: TestServer,
  key: string,
  l: { n: number; firstName: string; lastName: string },
  e: { programmeCode: string; startDate: string; expectedEndDate?: string },
): Promise<{ learnerId: string; enrolmentId: string }> {
  const learner = await s.call('POST', '/api/v1/learners', key, {
    firstName: l.firstName,
    lastName: l.lastName,
    idNumber: idNumberFor(7000 + l.n),
  });
  expect(learner.status).toBe(201);
  const made = await s.call('POST', '/api/v1/enrolments', key, { learnerId: learner.body.id, ...e });
  expect(made.status).toBe(201);
  return { learnerId: learner.body.id as string, enrolmentId: made.body.id as string };
}

export function assessmentBody(
  learnerId: string,
  moduleCode: string,
  over: Record<string, unknown> = {},
): Record<string, unknown> {
  return { learnerId, moduleCode, assessmentType: 'summative', outcome: 'C', assessmentDate: '2026-03-01', ...over };
}

/** The three mounts of every route: Form A, and Form B under both prefixes, with their invalid-input status. */
export function formsOf(slug: string) {
  return [
    {
      form: 'A',
      prefix: '/api/v1',
      invalid: 422,
      codes: { invalid: 'validation_error', conflict: 'conflict', notFound: 'not_found', forbidden: 'forbidden' },
    },
    {
      form: 'B',
      prefix: `/api/v1/tenants/${slug}`,
      invalid: 400,
      codes: { invalid: 'VALIDATION_ERROR', conflict: 'CONFLICT', notFound: 'NOT_FOUND', forbidden: 'FORBIDDEN' },
    },
    {
      form: 'B1',
      prefix: `/v1/tenants/${slug}`,
      invalid: 400,
      codes: { invalid: 'VALIDATION_ERROR', conflict: 'CONFLICT', notFound: 'NOT_FOUND', forbidden: 'FORBIDDEN' },
    },
  ] as const;
}

/** The field names an error body names, in either form's envelope. */
export function errorFields(body: { error: { details: unknown; errors?: { field: string }[] } }): string[] {
  const d = body.error.details;
  if (Array.isArray(d)) return d.map((x: { field: string }) => x.field);
  return body.error.errors ? body.error.errors.map((x) => x.field) : [(d as { field: string }).field];
}
