import { DomainError } from '@fundi/domain';
import { locateEnrolment } from '../assessments/locate-enrolment.js';
import type { Actor } from '../common/actor.js';
import type { EvidencePorts } from './evidence-ports.js';

export interface UploadRequest {
  learnerId?: unknown;
  moduleId?: unknown;
  enrolmentId?: unknown;
  evidenceType?: unknown;
  filename?: unknown;
  contentType?: unknown;
  size?: unknown;
}

/** Where new evidence belongs: a known learner and the enrolment for the module (field errors name the input). */
export async function locateUpload(
  repos: EvidencePorts['repos'],
  actor: Actor,
  input: { learnerId?: unknown; moduleId?: unknown; enrolmentId?: unknown },
) {
  const errors: { field: string; message: string }[] = [];
  if (typeof input.learnerId !== 'string' || input.learnerId === '')
    errors.push({ field: 'learnerId', message: 'is required' });
  if (typeof input.moduleId !== 'string' || input.moduleId === '')
    errors.push({ field: 'moduleId', message: 'is required (the module code)' });
  if (input.enrolmentId !== undefined && typeof input.enrolmentId !== 'string')
    errors.push({ field: 'enrolmentId', message: 'must be a string' });
  if (errors.length) throw DomainError.invalidMany(errors);
  const learnerId = input.learnerId as string;
  const moduleId = input.moduleId as string;
  const learner = await repos.learners.findById(actor.tenantId, learnerId);
  if (!learner) throw DomainError.invalid('learnerId', 'unknown learner', 'unknown_learner');
  try {
    const { enrolment } = await locateEnrolment(
      repos,
      actor.tenantId,
      learnerId,
      moduleId,
      input.enrolmentId as string | undefined,
    );
    return { learnerId, moduleId, enrolmentId: enrolment.id };
  } catch (e) {
    if (e instanceof DomainError && e.details[0]?.field === 'moduleCode')
      throw DomainError.invalid('moduleId', e.details[0].message, e.code);
    throw e;
  }
}

/** Where a piece of evidence belongs, as `locateUpload` answers it. */
export type UploadPlace = Awaited<ReturnType<typeof locateUpload>>;
