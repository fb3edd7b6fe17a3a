/**
 * The retention periods in days that docs/architecture.md ("Retention") documents as defaults, for tests that run
 * retention with them. Each capability declares its own default; the server's config test checks they are these.
 */
export const DOCUMENTED_RETENTION = {
  jobs: 7,
  webhookEvents: 90,
  webhookAttempts: 90,
  notifications: 365,
  hrLog: 90,
  imports: 90,
  dashboardSessions: 0,
  rateLimits: 0,
} as const;
