import { describe, expect, it } from 'vitest';
import { Tenant } from './tenant.js';
import type { DomainError } from '../common/errors.js';

function failingField(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    return (e as DomainError).details[0]?.field;
  }
  return undefined;
}

const base = Tenant.create(
  { slug: 'acme', name: 'Acme', plan: 'pilot' },
  { id: 'ten_1', now: new Date('2026-01-01T00:00:00Z') },
);

describe('Tenant.reconfigure', () => {
  it('overrides any number of the plan, and drops an override with "plan"', () => {
    const t = Tenant.reconfigure(base, { overrides: { perMinute: 5, perDay: null, storageBytes: 1024 } });
    expect(Tenant.limits(t)).toEqual({ perMinute: 5, perDay: null, storageBytes: 1024 });
    const back = Tenant.reconfigure(t, { plan: 'standard', overrides: { perMinute: 'plan' } });
    expect(Tenant.limits(back)).toEqual({ perMinute: 300, perDay: null, storageBytes: 1024 });
  });

  it.each([[0], [-1], [1.5], ['ten'], [null]])('refuses %j as the per-minute limit', (v) => {
    expect(failingField(() => Tenant.reconfigure(base, { overrides: { perMinute: v } }))).toBe('perMinute');
  });

  it('refuses an unknown plan', () => {
    expect(failingField(() => Tenant.reconfigure(base, { plan: 'gold' }))).toBe('plan');
  });
});
