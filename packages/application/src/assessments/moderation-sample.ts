import { DomainError, type SecretGenerator, type PlatformRepos } from '@fundi/domain';
import type { LearnerRepos } from '@fundi/domain/learners';
import {
  parseSamplePercent,
  pickSample,
  sampleSeedText,
  type AssessmentSnapshot,
  type ProgrammeSnapshot,
  type SampleRequest,
  type TrainingRepos,
} from '@fundi/domain/training';
import type { Actor } from '../common/actor.js';
import type { CoreDeps, SecretDeps } from '../common/ports.js';
import { assessmentView, type AssessmentView } from './assessment-view.js';
import { checkRanges } from '../common/ranges.js';

export interface ModerationSample extends SampleRequest {
  population: number;
  alreadyModerated: number;
  sample: AssessmentView[];
}

export interface SampleInput {
  from?: string | null;
  to?: string | null;
  percent?: number;
}

/** What a draw found: the programme, the normalised request, the population and the sample in sample order. */
export interface DrawnSample {
  programme: ProgrammeSnapshot;
  request: SampleRequest;
  population: AssessmentSnapshot[];
  sample: AssessmentSnapshot[];
}

/** The normalised request of a programme's sample; invalid input naming `percent` or `to`. */
export function sampleRequest(programmeCode: string, input: SampleInput): SampleRequest {
  const request: SampleRequest = {
    programmeCode,
    from: input.from ?? null,
    to: input.to ?? null,
    percent: parseSamplePercent(input.percent),
  };
  checkRanges(request, [['from', 'to']]);
  return request;
}

/**
 * Draws the sample of a programme (the GET and the recorded draw share it, so both give the same sample): the
 * seed is a hash of the normalised request `[programmeCode, from, to, percent]`, the order a hash of seed and id.
 */
export async function drawSample(
  repos: Pick<TrainingRepos, 'assessments'>,
  secrets: SecretGenerator,
  programme: ProgrammeSnapshot,
  input: SampleInput,
): Promise<DrawnSample> {
  const request = sampleRequest(programme.code, input);
  const population = await repos.assessments.summativeForProgramme(programme.tenantId, programme.id, request);
  const seed = secrets.hash(sampleSeedText(request));
  const sample = pickSample(population, request.percent, (id) => secrets.hash(`${seed}:${id}`));
  return { programme, request, population, sample };
}

/**
 * A reproducible sample of a programme's summative assessments for internal moderation: the seed is a hash of
 * the normalised request, so the same request gives the same sample (while the population is unchanged).
 */
export class SampleForModeration {
  constructor(
    private readonly deps: Pick<CoreDeps<TrainingRepos & LearnerRepos & PlatformRepos>, 'repos'> & SecretDeps,
  ) {}

  async execute(actor: Actor, input: SampleInput & { programmeCode: string }): Promise<ModerationSample> {
    sampleRequest(input.programmeCode, input);
    const programme = await this.deps.repos.programmes.findByCode(actor.tenantId, input.programmeCode);
    if (!programme) throw DomainError.invalid('programmeCode', 'unknown programme');
    const { request, population, sample } = await drawSample(this.deps.repos, this.deps.secrets, programme, input);
    return {
      ...request,
      population: population.length,
      alreadyModerated: population.filter((a) => a.moderation).length,
      sample: sample.map(assessmentView),
    };
  }
}
