import type { NotificationPorts } from './notification-ports.js';

/**
 * The dashboard pages the notifications' own staff and admin messages link to (docs/dashboard.md). A link names one
 * of them, a learner's record or the set-password page, so a message cannot point at a page the dashboard does not
 * serve; a capability's triggers link to its own pages (`TriggerRun.dashboardUrl`).
 */
export const DASHBOARD_PAGES = {
  overview: '/',
  webhooks: '/webhooks',
  apiKeys: '/api-keys',
} as const;
export type DashboardPath =
  | (typeof DASHBOARD_PAGES)[keyof typeof DASHBOARD_PAGES]
  | `/learners/${string}`
  | `/set-password?token=${string}`;

/** A link into the dashboard (staff and admin notifications) under the service's public URL. */
export function dashboardUrl(d: Pick<NotificationPorts, 'settings'>, path: DashboardPath): string {
  return `${d.settings.publicUrl}/dashboard${path}`;
}

/** A page of the learner portal (`/learn`), for links sent to learners and their supervisors. */
export function portalUrl(d: Pick<NotificationPorts, 'settings'>, path: `/${string}` | `?${string}`): string {
  return `${d.settings.publicUrl}/learn${path}`;
}
