import { DomainError, type TenantRepository, type TenantSnapshot } from '@fundi/domain';
import type { SqlDb } from '../db/sql-db.js';
import { bumpAuthEpoch } from './auth-epoch.js';
import { mapUnique } from '../db/conflicts.js';

type Row = Record<string, string | null>;

const tenantOf = (r: Row): TenantSnapshot => ({
  id: r.id!,
  slug: r.slug!,
  name: r.name!,
  plan: r.plan as TenantSnapshot['plan'],
  limitOverrides: JSON.parse(r.limit_overrides ?? '{}'),
  ...(r.time_zone ? { timeZone: r.time_zone } : {}),
  createdAt: r.created_at!,
});

export class SqlTenantRepository implements TenantRepository {
  constructor(private readonly db: SqlDb) {}

  async insert(t: TenantSnapshot): Promise<void> {
    await bumpAuthEpoch(this.db);
    await mapUnique(
      this.db.dialect,
      [
        {
          column: 'slug',
          error: () =>
            DomainError.conflict('duplicate_slug', `A tenant with slug ${t.slug} already exists`, [
              { field: 'slug', message: 'is taken' },
            ]),
        },
      ],
      () =>
        this.db.run(
          'INSERT INTO tenants (id, slug, name, plan, limit_overrides, time_zone, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
          [t.id, t.slug, t.name, t.plan, JSON.stringify(t.limitOverrides), t.timeZone ?? null, t.createdAt],
        ),
    );
  }

  async update(t: TenantSnapshot): Promise<void> {
    await bumpAuthEpoch(this.db);
    const { changes } = await this.db.run(
      'UPDATE tenants SET name = ?, plan = ?, limit_overrides = ?, time_zone = ? WHERE id = ?',
      [t.name, t.plan, JSON.stringify(t.limitOverrides), t.timeZone ?? null, t.id],
    );
    if (changes === 0) throw DomainError.notFound('tenant', t.slug);
  }

  async findBySlug(slug: string): Promise<TenantSnapshot | null> {
    const r = await this.db.first<Row>('SELECT * FROM tenants WHERE slug = ?', [slug]);
    return r ? tenantOf(r) : null;
  }

  async findById(id: string): Promise<TenantSnapshot | null> {
    const r = await this.db.first<Row>('SELECT * FROM tenants WHERE id = ?', [id]);
    return r ? tenantOf(r) : null;
  }

  async list(): Promise<TenantSnapshot[]> {
    return (await this.db.all<Row>('SELECT * FROM tenants ORDER BY slug')).map(tenantOf);
  }
}
