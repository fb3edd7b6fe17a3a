import { basename, dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { filesDefiningMigrations, migrationsExportedBy } from '../testing/migration-files.js';
import type { Migration } from './migration.js';
import { inRunOrder, parseMigrationName } from './run-order.js';

const files = filesDefiningMigrations();
const found = await migrationsExportedBy(files);
const all = found.flatMap((f) => f.migrations);

describe('every migration', () => {
  it('is defined in its capability folder, one per file, the file named after the migration', () => {
    expect(files.length).toBeGreaterThan(30);
    for (const { file, migrations } of found) {
      expect(
        migrations.map((m) => m.name),
        file,
      ).toHaveLength(1);
      const [m] = migrations as [Migration];
      const { capability } = parseMigrationName(m.name);
      expect(dirname(file), m.name).toBe(`${capability}/migrations`);
      expect(basename(file, '.ts'), m.name).toBe(m.name.slice(capability.length + 1));
    }
  });

  it('has a well-formed name no other migration has, and no timestamp in the future', () => {
    expect(() => inRunOrder(all)).not.toThrow();
    const now = new Date().toISOString().replace(/\D/g, '').slice(0, 12);
    for (const m of all) expect(parseMigrationName(m.name).at <= now, m.name).toBe(true);
  });

  it('known by a former name runs in the order of those names, its timestamps strictly increasing', () => {
    const renamed = all.filter((m) => m.formerly !== undefined);
    for (const m of renamed) expect(m.formerly, m.name).toMatch(/^\d{3}-[a-z0-9-]+$/);
    const formerOrder = [...renamed].sort((a, b) => (a.formerly! < b.formerly! ? -1 : 1));
    const stamps = formerOrder.map((m) => parseMigrationName(m.name).at);
    for (let i = 1; i < stamps.length; i++)
      expect(stamps[i]! > stamps[i - 1]!, `${formerOrder[i - 1]!.name} < ${formerOrder[i]!.name}`).toBe(true);
    expect(inRunOrder(renamed).map((m) => m.name)).toEqual(formerOrder.map((m) => m.name));
    // Migrations written since run after every renamed one.
    const last = stamps.at(-1)!;
    for (const m of all.filter((x) => x.formerly === undefined))
      expect(parseMigrationName(m.name).at > last, m.name).toBe(true);
  });
});
