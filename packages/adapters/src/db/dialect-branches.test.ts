import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../', import.meta.url));

/** A test of which database runs: `dialect.name`, or a `name` compared with a database's. */
const ASKS_WHICH_DATABASE = /\bdialect\s*\??\.\s*name\b|\.name\s*[!=]==?\s*['"](postgres|sqlite)['"]/;

/** The lines of `source` that ask which database runs, as `line: text`. */
function branches(source: string): string[] {
  return source.split('\n').flatMap((line, i) => (ASKS_WHICH_DATABASE.test(line) ? [`${i + 1}: ${line.trim()}`] : []));
}

/** Every TypeScript file of the adapters' source (tests too) outside `db/`, by path under `src/`. */
function sources(dir = SRC, at = ''): [string, string][] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e): [string, string][] => {
    if (e.isDirectory()) return at === '' && e.name === 'db' ? [] : sources(`${dir}${e.name}/`, `${at}${e.name}/`);
    return e.name.endsWith('.ts') ? [[`${at}${e.name}`, readFileSync(`${dir}${e.name}`, 'utf8')]] : [];
  });
}

describe('dialect differences live in the dialect', () => {
  it('recognises a branch on the database, and not a question about what the dialect can do', () => {
    expect(branches("if (this.db.dialect.name === 'postgres') {")).toHaveLength(1);
    expect(branches("const op = db.dialect.name === 'postgres' ? 'a' : 'b';")).toHaveLength(1);
    expect(branches("const pg = tx.dialect?.name;\nif (kind.name !== 'sqlite') return;")).toHaveLength(2);
    expect(branches('if (this.db.dialect.writableCte) {\nconst s = db.dialect.amongPicked(c, p);')).toEqual([]);
  });

  it('no adapter outside db/ asks the dialect which database it is', () => {
    const files = sources();
    expect(files.map(([path]) => path)).toContain('webhooks/sql-webhook-deliveries.ts');
    const found = files.flatMap(([path, text]) => branches(text).map((b) => `${path}:${b}`));
    expect(found).toEqual([]);
  });
});
