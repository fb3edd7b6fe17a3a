import { DomainError } from '../common/errors.js';
import { PLAN_LIMITS, parsePlan, type Plan, type TenantLimits } from './plans.js';

export interface TenantSnapshot {
  id: string;
  slug: string;
  name: string;
  plan: Plan;
  /** Overrides of the plan's numbers; absent keys use the plan's. */
  limitOverrides: Partial<TenantLimits>;
  /** The IANA time zone the dashboard shows times in (times are stored in UTC); absent is `DEFAULT_TIME_ZONE`. */
  timeZone?: string;
  createdAt: string;
}

/** A tenant that chose no time zone sees South African time. */
export const DEFAULT_TIME_ZONE = 'Africa/Johannesburg';

export const timeZoneOf = (t: Pick<TenantSnapshot, 'timeZone'>): string => t.timeZone ?? DEFAULT_TIME_ZONE;

/** An IANA time zone name the runtime knows (`Africa/Johannesburg`, `UTC`). */
export function parseTimeZone(value: unknown): string {
  const invalid = () => DomainError.invalid('timeZone', 'must be an IANA time zone such as Africa/Johannesburg');
  if (typeof value !== 'string' || value.length === 0 || value.length > 64 || !/^[A-Za-z0-9_+\-/]+$/.test(value))
    throw invalid();
  try {
    return new Intl.DateTimeFormat('en', { timeZone: value }).resolvedOptions().timeZone;
  } catch {
    throw invalid();
  }
}

const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,48}[a-z0-9])?$/;

export const Tenant = {
  create(
    input: { slug: unknown; name: unknown; plan: unknown; limitOverrides?: Partial<TenantLimits> },
    ctx: { id: string; now: Date },
  ): TenantSnapshot {
    if (typeof input.slug !== 'string' || !SLUG.test(input.slug)) {
      throw DomainError.invalid(
        'slug',
        'must be 1-50 lowercase letters, digits or hyphens, not starting or ending with a hyphen',
      );
    }
    if (typeof input.name !== 'string' || !input.name.trim() || input.name.length > 200) {
      throw DomainError.invalid('name', 'must be a non-empty string of at most 200 characters');
    }
    return {
      id: ctx.id,
      slug: input.slug,
      name: input.name.trim(),
      plan: parsePlan(input.plan),
      limitOverrides: input.limitOverrides ?? {},
      createdAt: ctx.now.toISOString(),
    };
  },

  /**
   * A new plan and/or overrides. Each override is a number, `null` for "no cap" (per day, storage), or
   * `'plan'` to drop the override and use the plan's number again.
   */
  reconfigure(
    t: TenantSnapshot,
    change: { plan?: unknown; overrides?: Partial<Record<keyof TenantLimits, unknown>> },
  ): TenantSnapshot {
    const plan = change.plan === undefined ? t.plan : parsePlan(change.plan);
    const overrides: Partial<TenantLimits> = { ...t.limitOverrides };
    for (const [field, value] of Object.entries(change.overrides ?? {}) as [keyof TenantLimits, unknown][]) {
      if (value === undefined) continue;
      if (value === 'plan') delete overrides[field];
      else if (value === null && field !== 'perMinute') overrides[field] = null;
      else if (Number.isSafeInteger(value) && (value as number) > 0) overrides[field] = value as number;
      else
        throw DomainError.invalid(
          field,
          `must be a positive whole number${field === 'perMinute' ? '' : ', "none"'} or "plan"`,
        );
    }
    return { ...t, plan, limitOverrides: overrides };
  },

  limits(t: TenantSnapshot): TenantLimits {
    return { ...PLAN_LIMITS[t.plan], ...t.limitOverrides };
  },
};
