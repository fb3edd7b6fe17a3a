import { DomainError } from '../common/errors.js';

export const PLANS = ['pilot', 'starter', 'professional', 'standard', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];

/** Per-API-key request limits and the tenant's storage (docs/api.md, "Rate limits"). `null` = no cap. */
export interface TenantLimits {
  perMinute: number;
  perDay: number | null;
  storageBytes: number | null;
}

const GB = 1024 ** 3;

export const PLAN_LIMITS: Record<Plan, TenantLimits> = {
  pilot: { perMinute: 60, perDay: 10_000, storageBytes: 5 * GB },
  starter: { perMinute: 60, perDay: 1_000, storageBytes: 5 * GB },
  professional: { perMinute: 300, perDay: 10_000, storageBytes: 50 * GB },
  standard: { perMinute: 300, perDay: 100_000, storageBytes: 50 * GB },
  // Enterprise storage is set per tenant; until it is, there is no cap.
  enterprise: { perMinute: 1_000, perDay: null, storageBytes: null },
};

export function parsePlan(value: unknown, field = 'plan'): Plan {
  if (typeof value !== 'string' || !(PLANS as readonly string[]).includes(value)) {
    throw DomainError.invalid(field, `must be one of ${PLANS.join(', ')}`);
  }
  return value as Plan;
}
