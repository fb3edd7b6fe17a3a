/** An alert for a tenant's administrators (a webhook subscription stopped by failures, ...). */
export interface TenantAlert {
  id: string;
  tenantId: string;
  kind: string;
  message: string;
  createdAt: string;
  readAt: string | null;
}

/** Port: alerts for a tenant's administrators (shown by a later dashboard/notification capability). */
export interface TenantAlertLog {
  add(alert: TenantAlert): Promise<void>;
  /** Newest first. */
  list(tenantId: string, limit: number): Promise<TenantAlert[]>;
}
