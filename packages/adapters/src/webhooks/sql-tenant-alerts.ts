import type { TenantAlert, TenantAlertLog } from '@fundi/domain/webhooks';
import type { SqlDb } from '../db/sql-db.js';
import type { Row } from '../db/sql-helpers.js';

/** Alerts for a tenant's administrators (a subscription stopped by failed deliveries). */
export class SqlTenantAlertLog implements TenantAlertLog {
  constructor(private readonly db: SqlDb) {}

  async add(a: TenantAlert): Promise<void> {
    await this.db.run(
      'INSERT INTO tenant_alerts (id, tenant_id, kind, message, created_at, read_at) VALUES (?, ?, ?, ?, ?, ?)',
      [a.id, a.tenantId, a.kind, a.message, a.createdAt, a.readAt],
    );
  }

  async list(tenantId: string, limit: number): Promise<TenantAlert[]> {
    const rows = await this.db.all<Row>('SELECT * FROM tenant_alerts WHERE tenant_id = ? ORDER BY id DESC LIMIT ?', [
      tenantId,
      limit,
    ]);
    return rows.map((r) => ({
      id: String(r.id),
      tenantId: String(r.tenant_id),
      kind: String(r.kind),
      message: String(r.message),
      createdAt: String(r.created_at),
      readAt: (r.read_at as string | null) ?? null,
    }));
  }
}
