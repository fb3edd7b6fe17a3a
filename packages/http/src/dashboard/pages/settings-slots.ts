import type { TenantLimits } from '@fundi/domain';
import type { Html } from '../html.js';

/** What the settings page hands each of its sections. */
export interface SettingsAt {
  /** The tenant's plan limits. */
  limits: TenantLimits;
}

declare module '../dashboard-deps.js' {
  interface PageSlots {
    /** Rows of the settings page's plan and limits: a limit a capability keeps, with its label. */
    settingsLimits: { at: SettingsAt; shows: readonly { label: string; value: string | number }[] };
    /**
     * Panels of the settings page below the time zone (docs/dashboard.md, "Shared pages"): a capability's settings,
     * with their forms; their posts answer with `settingsPage`.
     */
    settings: { at: SettingsAt; shows: Html };
  }
}
