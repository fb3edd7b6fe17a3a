import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** Test code: test files, anything under a `testing/` folder, fixtures. Production code is every other file. */
const isTestCode = (path: string) =>
  /\.test\.ts$/.test(path) || /(?:^|\/)testing\//.test(path) || /fixtures?\b[^/]*$|\/[^/]*fixtures?[^/]*\//.test(path);

/** `@fundi/testing` (and its subpaths), any package's `testing` subpath, and the removed `@fundi/fakes`. */
const TEST_ONLY = /^@fundi\/(?:testing|fakes)(?:\/.*)?$|^@fundi\/[^/]+\/testing(?:\/.*)?$/;
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"]+)['"]/g;

function sourceFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (e.isDirectory() && e.name !== 'node_modules' && e.name !== 'dist') walk(path);
      else if (e.isFile() && /\.[cm]?[jt]s$/.test(e.name)) out.push(relative(root, path));
    }
  };
  for (const group of ['packages', 'apps'])
    for (const pkg of readdirSync(join(root, group), { withFileTypes: true }))
      if (pkg.isDirectory()) {
        const src = join(root, group, pkg.name, 'src');
        try {
          walk(src);
        } catch {
          // A package without sources (none today) has nothing to check.
        }
      }
  return out.sort();
}

/**
 * Every import of test-only code from production code (`file: specifier`), every import of `@fundi/fakes`
 * anywhere, and every package that lists `@fundi/testing` or `@fundi/fakes` among its production dependencies.
 */
function findTestImports(root: string): string[] {
  const found: string[] = [];
  for (const file of sourceFiles(root)) {
    const text = readFileSync(join(root, file), 'utf8');
    for (const [, spec] of text.matchAll(SPECIFIER))
      if (spec && TEST_ONLY.test(spec) && (!isTestCode(file) || spec.startsWith('@fundi/fakes')))
        found.push(`${file}: ${spec}`);
  }
  for (const group of ['packages', 'apps'])
    for (const pkg of readdirSync(join(root, group), { withFileTypes: true })) {
      if (!pkg.isDirectory()) continue;
      let manifest: { dependencies?: Record<string, string> };
      try {
        manifest = JSON.parse(readFileSync(join(root, group, pkg.name, 'package.json'), 'utf8'));
      } catch {
        continue;
      }
      for (const dep of Object.keys(manifest.dependencies ?? {}))
        if (dep === '@fundi/testing' || dep === '@fundi/fakes')
          found.push(`${group}/${pkg.name}/package.json: dependencies lists ${dep}`);
    }
  return found;
}

describe('production code never imports test doubles', () => {
  it('imports neither @fundi/testing nor a testing subpath, nothing imports @fundi/fakes', () => {
    expect(findTestImports(ROOT)).toEqual([]);
  });

  describe('on a repository made for the purpose', () => {
    const dir = mkdtempSync(join(tmpdir(), 'fundi-test-imports-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const put = (path: string, text: string) => {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    };
    // Built at run time so that this file itself holds no import of what the check looks for.
    const at = (name: string) => `@fundi/${name}`;
    put('packages/a/package.json', JSON.stringify({ dependencies: { [at('testing')]: '*' } }));
    put('packages/a/src/clock.ts', `import { FixedClock } from '${at('testing')}';\n`);
    put('packages/a/src/store.ts', `export { x } from '${at('adapters/testing')}';\nawait import('${at('fakes')}');\n`);
    put(
      'packages/a/src/ok.ts',
      `import { y } from '${at('memory/hr-sync')}';\nimport { z } from './testing-notes.js';\n`,
    );
    put('packages/a/src/a.test.ts', `import { FixedClock } from '${at('testing')}';\n`);
    put('packages/a/src/testing/world.ts', `import { w } from '${at('domain/testing')}';\n`);
    put('packages/a/src/world-fixture.ts', `import { FixedClock } from '${at('testing')}';\n`);
    put('packages/a/src/old.test.ts', `import { FixedClock } from '${at('fakes')}';\n`);
    put('apps/b/package.json', JSON.stringify({ devDependencies: { [at('testing')]: '*' } }));
    put('apps/b/src/main.ts', `import { s } from '${at('server/testing')}';\n`);
    put('apps/b/dist/main.js', `import { s } from '${at('server/testing')}';\n`);

    it('names each import and production dependency, and leaves test code alone', () => {
      expect(findTestImports(dir)).toEqual([
        `apps/b/src/main.ts: ${at('server/testing')}`,
        `packages/a/src/clock.ts: ${at('testing')}`,
        `packages/a/src/old.test.ts: ${at('fakes')}`,
        `packages/a/src/store.ts: ${at('adapters/testing')}`,
        `packages/a/src/store.ts: ${at('fakes')}`,
        `packages/a/package.json: dependencies lists ${at('testing')}`,
      ]);
    });
  });
});
