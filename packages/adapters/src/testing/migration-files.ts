import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Migration } from '../migrations/migration.js';

/** packages/adapters/src, where every capability's folder is. */
export const ADAPTERS_SRC = fileURLToPath(new URL('..', import.meta.url));

/** Every non-test TypeScript file under packages/adapters/src, relative to it. */
export function adapterSourceFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (e.isDirectory()) walk(path);
      else if (e.name.endsWith('.ts') && !e.name.endsWith('.test.ts')) out.push(relative(ADAPTERS_SRC, path));
    }
  };
  walk(ADAPTERS_SRC);
  return out.sort();
}

/** The files that define a migration (a `const` of type `Migration`), wherever they are. */
export function filesDefiningMigrations(): string[] {
  return adapterSourceFiles().filter((f) =>
    /^(?:export )?const \w+\s*:\s*Migration\s*=/m.test(readFileSync(join(ADAPTERS_SRC, f), 'utf8')),
  );
}

const isMigration = (v: unknown): v is Migration =>
  typeof v === 'object' &&
  v !== null &&
  typeof (v as Migration).name === 'string' &&
  typeof (v as Migration).up === 'function' &&
  typeof (v as Migration).down === 'function';

/** The migrations each of `files` exports. */
export async function migrationsExportedBy(
  files: readonly string[],
): Promise<{ file: string; migrations: Migration[] }[]> {
  return Promise.all(
    files.map(async (file) => {
      const module = (await import(pathToFileURL(join(ADAPTERS_SRC, file)).href)) as Record<string, unknown>;
      return { file, migrations: Object.values(module).filter(isMigration) };
    }),
  );
}
