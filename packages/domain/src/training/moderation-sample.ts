import { IsoDate } from '../common/dates.js';
import { DomainError } from '../common/errors.js';

export interface SampleRequest {
  programmeCode: string;
  from: string | null;
  to: string | null;
  percent: number;
}

export function parseSamplePercent(value: unknown): number {
  if (value == null) return 10;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 100)
    throw DomainError.invalid('percent', 'must be a whole number from 1 to 100');
  return value;
}

/** The normalised request the seed is derived from: the same request always gives the same seed. */
export function sampleSeedText(r: SampleRequest): string {
  return JSON.stringify([r.programmeCode, r.from ?? '', r.to ?? '', r.percent]);
}

/**
 * A reproducible random sample: order the population by a keyed hash of each id (`score(id)`, for instance
 * sha256(seed + id)) and take ceil(percent% of it). Deterministic for a given seed and population.
 */
export function pickSample<T extends { id: string }>(
  population: readonly T[],
  percent: number,
  score: (id: string) => string,
): T[] {
  const size = Math.ceil((population.length * percent) / 100);
  return population
    .map((item) => ({ item, key: score(item.id) }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.item.id < b.item.id ? -1 : 1))
    .slice(0, size)
    .map((x) => x.item);
}

/**
 * A drawn and recorded moderation sample (docs/api.md, "Moderation"): the request it was drawn with, the programme
 * it names, the sample's assessment ids in sample order, and who drew it when. Never changes once stored.
 */
export interface ModerationSampleSnapshot {
  id: string;
  tenantId: string;
  programmeId: string;
  programmeCode: string;
  from: string | null;
  to: string | null;
  percent: number;
  /** How many summative assessments the period held when it was drawn, and how many of them were moderated. */
  population: number;
  alreadyModerated: number;
  assessmentIds: string[];
  /** The date the moderation of the sample is due, YYYY-MM-DD. */
  dueBy: string;
  drawnBy: string;
  drawnAt: string;
}

/** Days after drawing that a sample's moderation is due when the request names no date. */
export const SAMPLE_DUE_DAYS = 14;

/** `dueBy` of a draw: a real YYYY-MM-DD date not before `today`; absent gives `today` + SAMPLE_DUE_DAYS. */
export function parseSampleDueBy(value: unknown, now: Date): string {
  const today = now.toISOString().slice(0, 10);
  if (value == null) return new Date(now.getTime() + SAMPLE_DUE_DAYS * 86_400_000).toISOString().slice(0, 10);
  const due = IsoDate.parse(value, 'dueBy');
  if (due < today) throw DomainError.invalid('dueBy', 'must not be in the past');
  return due;
}
