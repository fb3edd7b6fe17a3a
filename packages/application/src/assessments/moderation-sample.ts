import {
  DomainError,
  parseSamplePercent,
  pickSample,
  sampleSeedText,
  type SampleRequest,
  type TrainingRepos,
  type LearnerRepos,
  type PlatformRepos,
} from '@fundi/domain';
import type { Actor } from '../shared/actor.js';
import type { CoreDeps, SecretDeps } from '../shared/ports.js';
import { assessmentView, type AssessmentView } from './assessment-view.js';

export interface ModerationSample extends SampleRequest {
  population: number;
  alreadyModerated: number;
  sample: AssessmentView[];
}

/**
 * A reproducible sample of a programme's summative assessments for internal moderation: the seed is a hash of
 * the normalised request, so the same request gives the same sample (while the population is unchanged).
 */
export class SampleForModeration {
  constructor(
    private readonly deps: Pick<CoreDeps<TrainingRepos & LearnerRepos & PlatformRepos>, 'repos'> & SecretDeps,
  ) {}

  async execute(
    actor: Actor,
    input: { programmeCode: string; from?: string; to?: string; percent?: number },
  ): Promise<ModerationSample> {
    const request: SampleRequest = {
      programmeCode: input.programmeCode,
      from: input.from ?? null,
      to: input.to ?? null,
      percent: parseSamplePercent(input.percent),
    };
    if (request.from && request.to && request.from > request.to)
      throw DomainError.invalid('to', 'must not be before from');
    const programme = await this.deps.repos.programmes.findByCode(actor.tenantId, request.programmeCode);
    if (!programme) throw DomainError.invalid('programmeCode', 'unknown programme');
    const population = await this.deps.repos.assessments.summativeForProgramme(actor.tenantId, programme.id, request);
    const seed = this.deps.secrets.hash(sampleSeedText(request));
    const sample = pickSample(population, request.percent, (id) => this.deps.secrets.hash(`${seed}:${id}`));
    return {
      ...request,
      population: population.length,
      alreadyModerated: population.filter((a) => a.moderation).length,
      sample: sample.map(assessmentView),
    };
  }
}
