import type { HrSyncConfigRepository, HrSyncConfigSnapshot } from '@fundi/domain/hr-sync';
import type { SqlDb } from '../db/sql-db.js';
import { str, type Row } from '../db/sql-helpers.js';

const CONFIG_COLUMNS = [
  'tenant_id',
  'enabled',
  'system',
  'outbound_url',
  'header_name',
  'field_mapping',
  'key_hash',
  'key_prefix',
  'previous_key_hash',
  'previous_key_expires_at',
  'subscription_id',
  'created_at',
  'updated_at',
];
const UPSERT = `INSERT INTO hr_sync_configs (${CONFIG_COLUMNS.join(', ')}) VALUES (${CONFIG_COLUMNS.map(() => '?').join(', ')})
  ON CONFLICT (tenant_id) DO UPDATE SET ${CONFIG_COLUMNS.slice(1)
    .filter((c) => c !== 'created_at')
    .map((c) => `${c} = excluded.${c}`)
    .join(', ')}`;

function rowToConfig(r: Row): HrSyncConfigSnapshot {
  return {
    tenantId: String(r.tenant_id),
    enabled: Boolean(r.enabled),
    system: 'custom',
    outboundUrl: str(r.outbound_url),
    headerName: String(r.header_name),
    fieldMapping: JSON.parse(String(r.field_mapping)),
    keyHash: str(r.key_hash),
    keyPrefix: str(r.key_prefix),
    previousKeyHash: str(r.previous_key_hash),
    previousKeyExpiresAt: str(r.previous_key_expires_at),
    subscriptionId: str(r.subscription_id),
    createdAt: String(r.created_at),
    updatedAt: String(r.updated_at),
  };
}

export class SqlHrSyncConfigRepository implements HrSyncConfigRepository {
  constructor(private readonly db: SqlDb) {}

  async find(tenantId: string) {
    const r = await this.db.first<Row>('SELECT * FROM hr_sync_configs WHERE tenant_id = ?', [tenantId]);
    return r ? rowToConfig(r) : null;
  }

  async findByTenantSlug(slug: string) {
    const r = await this.db.first<Row>(
      'SELECT c.* FROM hr_sync_configs c JOIN tenants t ON t.id = c.tenant_id WHERE t.slug = ?',
      [slug],
    );
    return r ? rowToConfig(r) : null;
  }

  async findByKeyHash(hash: string) {
    const r = await this.db.first<Row>(
      'SELECT * FROM hr_sync_configs WHERE key_hash = ? OR previous_key_hash = ? LIMIT 1',
      [hash, hash],
    );
    return r ? rowToConfig(r) : null;
  }

  async save(c: HrSyncConfigSnapshot) {
    await this.db.run(UPSERT, [
      c.tenantId,
      c.enabled,
      c.system,
      c.outboundUrl,
      c.headerName,
      JSON.stringify(c.fieldMapping),
      c.keyHash,
      c.keyPrefix,
      c.previousKeyHash,
      c.previousKeyExpiresAt,
      c.subscriptionId,
      c.createdAt,
      c.updatedAt,
    ]);
  }
}
