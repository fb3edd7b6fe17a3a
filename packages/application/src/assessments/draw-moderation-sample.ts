import { DomainError, newId, type PlatformRepos } from '@fundi/domain';
import type { LearnerRepos } from '@fundi/domain/learners';
import {
  parseSampleDueBy,
  type ModerationSampleSnapshot,
  type ProgrammeRepository,
  type ProgrammeSnapshot,
  type TrainingRepos,
} from '@fundi/domain/training';
import { actorRef, type Actor } from '../common/actor.js';
import type { CoreDeps, SecretDeps } from '../common/ports.js';
import { recordChange } from '../common/record-change.js';
import { drawSample, sampleRequest, type SampleInput } from './moderation-sample.js';

/** The event of a recorded draw: the moderators are told (the `moderation_due` notification). */
export const SAMPLE_DRAWN_EVENT = 'moderation.sample_drawn';

export interface DrawSampleInput extends SampleInput {
  programmeId?: string;
  programmeCode?: string;
  dueBy?: string | null;
}

export type ModerationSampleView = Omit<ModerationSampleSnapshot, 'tenantId'>;

export function moderationSampleView(s: ModerationSampleSnapshot): ModerationSampleView {
  const { tenantId: _t, ...rest } = s;
  return rest;
}

/**
 * Draws a programme's moderation sample (the same one `GET /moderation/sample` gives for the request) and records it
 * with its audit entry and a `moderation.sample_drawn` event in one transaction. The population is read in that
 * transaction, so the stored ids are the sample of what was committed when it was drawn.
 */
export class DrawModerationSample {
  constructor(private readonly deps: CoreDeps<TrainingRepos & LearnerRepos & PlatformRepos> & SecretDeps) {}

  async execute(actor: Actor, input: DrawSampleInput): Promise<ModerationSampleView> {
    const now = this.deps.clock.now();
    const dueBy = parseSampleDueBy(input.dueBy, now);
    sampleRequest(input.programmeCode ?? '', input);
    return this.deps.uow.run(async (tx) => {
      const programme = await findProgramme(tx.programmes, actor.tenantId, input);
      const { request, population, sample } = await drawSample(tx, this.deps.secrets, programme, input);
      const s: ModerationSampleSnapshot = {
        id: newId('smp'),
        tenantId: actor.tenantId,
        programmeId: programme.id,
        programmeCode: programme.code,
        from: request.from,
        to: request.to,
        percent: request.percent,
        population: population.length,
        alreadyModerated: population.filter((a) => a.moderation).length,
        assessmentIds: sample.map((a) => a.id),
        dueBy,
        drawnBy: actor.id,
        drawnAt: now.toISOString(),
      };
      await tx.moderationSamples.insert(s);
      await recordChange(tx, actor, now, {
        action: SAMPLE_DRAWN_EVENT,
        resourceType: 'moderation_sample',
        resourceId: s.id,
        details: { programmeCode: s.programmeCode, percent: s.percent, count: s.assessmentIds.length },
        events: [
          {
            type: SAMPLE_DRAWN_EVENT,
            data: {
              sampleId: s.id,
              programmeId: s.programmeId,
              programmeCode: s.programmeCode,
              from: s.from,
              to: s.to,
              percent: s.percent,
              population: s.population,
              count: s.assessmentIds.length,
              dueBy: s.dueBy,
              drawnBy: actorRef(actor.id, actor.name ?? null),
            },
          },
        ],
      });
      return moderationSampleView(s);
    });
  }
}

/** The programme a draw names by `programmeId` or `programmeCode` (both must then name the same one). */
async function findProgramme(
  programmes: ProgrammeRepository,
  tenantId: string,
  input: DrawSampleInput,
): Promise<ProgrammeSnapshot> {
  if (!input.programmeId && !input.programmeCode)
    throw DomainError.invalid('programmeId', 'give programmeId or programmeCode');
  const byId = input.programmeId ? await programmes.findById(tenantId, input.programmeId) : null;
  if (input.programmeId && !byId) throw DomainError.invalid('programmeId', 'unknown programme');
  if (!input.programmeCode) return byId!;
  if (byId && byId.code !== input.programmeCode)
    throw DomainError.invalid('programmeCode', 'names another programme than programmeId');
  const byCode = byId ?? (await programmes.findByCode(tenantId, input.programmeCode));
  if (!byCode) throw DomainError.invalid('programmeCode', 'unknown programme');
  return byCode;
}
