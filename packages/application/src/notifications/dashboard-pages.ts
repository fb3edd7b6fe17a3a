/**
 * The dashboard pages staff and admin messages link to (docs/dashboard.md). A link names one of them, a learner's
 * record or the set-password page, so a message cannot point at a page the dashboard does not serve.
 */
export const DASHBOARD_PAGES = {
  overview: '/',
  evidenceQueue: '/evidence',
  exports: '/exports',
  webhooks: '/webhooks',
  apiKeys: '/api-keys',
} as const;
export type DashboardPath =
  | (typeof DASHBOARD_PAGES)[keyof typeof DASHBOARD_PAGES]
  | `/learners/${string}`
  | `/set-password?token=${string}`;
