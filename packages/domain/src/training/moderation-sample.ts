import { DomainError } from '../shared/errors.js';

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
