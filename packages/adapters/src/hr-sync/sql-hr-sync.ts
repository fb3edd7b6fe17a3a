import {
  DomainError,
  type HrEventEntry,
  type HrEventLog,
  type HrSyncConfigRepository,
  type HrSyncConfigSnapshot,
  type HrSyncRepos,
  type Page,
  type PageRequest,
} from '@fundi/domain';
import { hrSyncMemory } from '@fundi/memory/hr-sync';
import type { SqlDb } from '../db/sql-db.js';
import { str, type Row } from '../db/sql-helpers.js';
import { mapUnique } from '../repos/conflicts.js';
import type { CapabilityStorage } from '../storage/capability-storage.js';
import { hrSyncMigration } from './migrations/202611232341-hr-sync.js';

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

const json = (v: unknown) => (v === null || v === undefined ? null : JSON.parse(String(v)));

function rowToEntry(r: Row): HrEventEntry {
  return {
    id: String(r.id),
    tenantId: String(r.tenant_id),
    eventKey: String(r.event_key),
    hrEventId: str(r.hr_event_id),
    event: String(r.event),
    receivedAt: String(r.received_at),
    result: String(r.result) as HrEventEntry['result'],
    response: json(r.response),
    error: json(r.error),
    learnerId: str(r.learner_id),
    data: json(r.data),
    redacted: Boolean(r.redacted),
  };
}

const INSERT_EVENT = `INSERT INTO hr_events (id, tenant_id, event_key, processed_key, hr_event_id, event, received_at, result,
  response, error, learner_id, data, redacted) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

export class SqlHrEventLog implements HrEventLog {
  constructor(private readonly db: SqlDb) {}

  async add(e: HrEventEntry) {
    const text = (v: unknown) => (v === null ? null : JSON.stringify(v));
    await mapUnique(
      this.db.dialect,
      [
        {
          column: 'processed_key',
          error: () => DomainError.conflict('hr_event_duplicate', 'This event was already processed'),
        },
      ],
      () =>
        this.db.run(INSERT_EVENT, [
          e.id,
          e.tenantId,
          e.eventKey,
          e.result === 'processed' ? e.eventKey : null,
          e.hrEventId,
          e.event,
          e.receivedAt,
          e.result,
          text(e.response),
          text(e.error),
          e.learnerId,
          text(e.data),
          e.redacted,
        ]),
    );
  }

  async findProcessed(tenantId: string, eventKey: string) {
    const r = await this.db.first<Row>('SELECT * FROM hr_events WHERE tenant_id = ? AND processed_key = ?', [
      tenantId,
      eventKey,
    ]);
    return r ? rowToEntry(r) : null;
  }

  /** Newest first, like the webhook delivery log: a cursor continues below the last id. */
  async list(tenantId: string, page: PageRequest): Promise<Page<HrEventEntry>> {
    const total = await this.db.first<{ n: number }>('SELECT COUNT(*) AS n FROM hr_events WHERE tenant_id = ?', [
      tenantId,
    ]);
    const rows =
      page.kind === 'cursor'
        ? await this.db.all<Row>(
            `SELECT * FROM hr_events WHERE tenant_id = ?${page.after ? ' AND id < ?' : ''} ORDER BY id DESC LIMIT ?`,
            page.after ? [tenantId, page.after, page.limit + 1] : [tenantId, page.limit + 1],
          )
        : await this.db.all<Row>('SELECT * FROM hr_events WHERE tenant_id = ? ORDER BY id DESC LIMIT ? OFFSET ?', [
            tenantId,
            page.limit + 1,
            page.offset,
          ]);
    return {
      items: rows.slice(0, page.limit).map(rowToEntry),
      total: Number(total?.n ?? 0),
      hasMore: rows.length > page.limit,
    };
  }

  async redactLearner(tenantId: string, learnerId: string) {
    const { changes } = await this.db.run(
      // The body hash is derived from personal data (an ID number has little entropy): it goes too.
      `UPDATE hr_events SET data = NULL, redacted = ?, event_key = ${"'erased:' || id"},
        processed_key = CASE WHEN processed_key IS NULL THEN NULL ELSE ${"'erased:' || id"} END
        WHERE tenant_id = ? AND learner_id = ?`,
      [true, tenantId, learnerId],
    );
    return changes;
  }

  async pruneBefore(before: string, limit: number) {
    // The oldest entries by id (the primary key's order, which is receipt order): a bounded read, no index of its own.
    const pick =
      'SELECT id FROM (SELECT id, received_at FROM hr_events ORDER BY id LIMIT ?) oldest WHERE received_at < ?';
    const sql = `DELETE FROM hr_events WHERE ${this.db.dialect.amongPicked('id', pick)}`;
    return (await this.db.run(sql, [limit, before])).changes;
  }
}

/** HR sync's configuration and inbound log (migration `hr-sync`). */
export const hrSyncStorage: CapabilityStorage<HrSyncRepos> = {
  migrations: [hrSyncMigration],
  sql: (db) => ({ hrSyncConfigs: new SqlHrSyncConfigRepository(db), hrEvents: new SqlHrEventLog(db) }),
  memory: hrSyncMemory,
  erasureTables: ['hr_events'],
};
