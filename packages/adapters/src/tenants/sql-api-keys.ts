import type { ApiKeyRepository, ApiKeySnapshot, ApiKeyUsageDelta, ApiKeyUsageRepository } from '@fundi/domain';
import type { SqlDb } from '../db/sql-db.js';
import { chunks, marks } from '../db/sql-helpers.js';
import { bumpAuthEpoch } from './auth-epoch.js';

type Row = Record<string, string | null>;

const keyOf = (r: Row): ApiKeySnapshot => ({
  id: r.id!,
  tenantId: r.tenant_id!,
  name: r.name!,
  role: r.role as ApiKeySnapshot['role'],
  scopes: JSON.parse(r.scopes ?? '[]'),
  prefix: r.prefix!,
  hash: r.hash!,
  expiresAt: r.expires_at ?? null,
  revokedAt: r.revoked_at ?? null,
  createdAt: r.created_at!,
});

/** API keys: only their hashes are stored. */
export class SqlApiKeyRepository implements ApiKeyRepository {
  /** The last auth epoch read and the read snapshot it was read under (`authEpoch`). */
  private epochRead: { snapshot: number | undefined; epoch: number } = { snapshot: undefined, epoch: 0 };
  constructor(private readonly db: SqlDb) {}

  async insert(k: ApiKeySnapshot): Promise<void> {
    await bumpAuthEpoch(this.db);
    await this.db.run(
      'INSERT INTO api_keys (id, tenant_id, name, role, scopes, prefix, hash, expires_at, revoked_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [
        k.id,
        k.tenantId,
        k.name,
        k.role,
        JSON.stringify(k.scopes),
        k.prefix,
        k.hash,
        k.expiresAt,
        k.revokedAt,
        k.createdAt,
      ],
    );
  }

  async findByHash(hash: string): Promise<ApiKeySnapshot | null> {
    const r = await this.db.first<Row>('SELECT * FROM api_keys WHERE hash = ?', [hash]);
    return r ? keyOf(r) : null;
  }

  async listByTenant(tenantId: string): Promise<ApiKeySnapshot[]> {
    return (await this.db.all<Row>('SELECT * FROM api_keys WHERE tenant_id = ? ORDER BY id DESC', [tenantId])).map(
      keyOf,
    );
  }

  async findByIds(tenantId: string, ids: readonly string[]): Promise<ApiKeySnapshot[]> {
    const out: ApiKeySnapshot[] = [];
    // By id alone, so the primary key is used whatever the tenant's number of keys; the tenant is checked on the rows.
    for (const part of chunks([...new Set(ids)], 500))
      for (const r of await this.db.all<Row>(`SELECT * FROM api_keys WHERE id IN (${marks(part.length)})`, part))
        if (r.tenant_id === tenantId) out.push(keyOf(r));
    return out;
  }

  async revoke(tenantId: string, id: string, at: string): Promise<boolean> {
    const { changes } = await this.db.run(
      'UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?) WHERE tenant_id = ? AND id = ?',
      [at, tenantId, id],
    );
    if (changes > 0) await bumpAuthEpoch(this.db);
    return changes > 0;
  }

  /**
   * Read once per read snapshot where reads share one (SQLite: the requests of one turn of the event loop, which
   * would each read the same value again); a write of this process ends the snapshot before it commits.
   */
  async authEpoch(): Promise<number> {
    const snapshot = this.db.readSnapshot?.();
    if (snapshot !== undefined && snapshot === this.epochRead.snapshot) return this.epochRead.epoch;
    const epoch = Number(
      (await this.db.first<{ epoch: number }>('SELECT epoch FROM auth_epoch WHERE id = 1'))?.epoch ?? 0,
    );
    this.epochRead = { snapshot: this.db.readSnapshot?.(), epoch };
    return epoch;
  }
}

/** Per-key daily request counts; each flush adds to the row, so several processes add up (one statement). */
export class SqlApiKeyUsageRepository implements ApiKeyUsageRepository {
  constructor(private readonly db: SqlDb) {}

  async add(deltas: readonly ApiKeyUsageDelta[]): Promise<void> {
    if (deltas.length === 0) return;
    await this.db.run(
      `INSERT INTO api_key_usage (key_id, day, tenant_id, requests, last_used_at) VALUES ${deltas.map(() => '(?, ?, ?, ?, ?)').join(', ')}
       ON CONFLICT (key_id, day) DO UPDATE SET requests = api_key_usage.requests + EXCLUDED.requests,
         last_used_at = CASE WHEN EXCLUDED.last_used_at > api_key_usage.last_used_at THEN EXCLUDED.last_used_at ELSE api_key_usage.last_used_at END`,
      deltas.flatMap((d) => [d.keyId, d.day, d.tenantId, d.requests, d.lastUsedAt]),
    );
  }

  async requestsOn(tenantId: string, day: string): Promise<number> {
    const r = await this.db.first<{ n: number | string | null }>(
      'SELECT SUM(requests) AS n FROM api_key_usage WHERE tenant_id = ? AND day = ?',
      [tenantId, day],
    );
    return Number(r?.n ?? 0);
  }

  async lastUsed(tenantId: string): Promise<Record<string, string>> {
    const rows = await this.db.all<{ key_id: string; at: string }>(
      'SELECT key_id, MAX(last_used_at) AS at FROM api_key_usage WHERE tenant_id = ? GROUP BY key_id',
      [tenantId],
    );
    return Object.fromEntries(rows.map((r) => [r.key_id, r.at]));
  }
}
