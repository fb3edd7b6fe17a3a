import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const SCRIPT = join(ROOT, 'scripts', 'check-citations.mjs');

function check(root: string) {
  const r = spawnSync(process.execPath, [SCRIPT, root], { encoding: 'utf8' });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

describe('the repository stands on its own (scripts/check-citations.mjs)', () => {
  it('cites no planning notes, issue numbers or outside files, and every docs section pointer resolves', () => {
    const { status, out } = check(ROOT);
    expect(out).toBe('');
    expect(status).toBe(0);
  });

  describe('on a repository made for the purpose', () => {
    const dir = mkdtempSync(join(tmpdir(), 'fundi-citations-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    // Built at run time so that this file itself holds none of what the check looks for.
    const decision = `${'D'}${3}`;
    const issue = `${'issue'} ${4}`;
    const outside = `../${'shared'}/spec/${'decisions'}.md`;
    const missingDoc = `${'docs'}/nowhere.md`;
    const missingSection = `${'docs'}/api.md, "Webhooks"`;
    const put = (path: string, text: string) => {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    };
    put('docs/api.md', '# API\n\n## Learners\n### Enrolments (`enrolments:read`)\n');
    put(
      'src/a.ts',
      `import { x } from '../common/errors.js';\n// Fine: (docs/api.md, "Learners").\n// Erasure (${decision}).\n`,
    );
    put('src/b.ts', `/** Parent heading: docs/api.md "Enrolments". */\n/** Delivery (${issue}). */\n`);
    put('src/c.test.ts', `describe('broken pointer (${missingSection})', () => {});\n// see ${missingDoc}\n`);
    put('notes/plan.md', `Read ${outside} first.\n`);
    put('node_modules/dep/index.ts', `// ${decision}\n`);
    put('packages/x/dist/index.js', `// ${issue}\n`);
    put('image.svg', `<!-- ${decision} -->\n`);
    execFileSync('git', ['init', '-q'], { cwd: dir });
    execFileSync('git', ['add', 'docs', 'src/a.ts', 'src/b.ts'], { cwd: dir });

    it('lists each finding as file:line, tracked or new, and fails', () => {
      const { status, out } = check(dir);
      expect(status).toBe(1);
      const found = out
        .split('\n')
        .filter((l) => /^\S+:\d+: /.test(l))
        .map((l) => l.split(': ').slice(0, 2).join(': '));
      expect(found).toEqual([
        'notes/plan.md:1: file outside the repository',
        'src/a.ts:3: decision number',
        'src/b.ts:2: issue number',
        `src/c.test.ts:1: ${'docs'}/api.md has no section "Webhooks"`,
        `src/c.test.ts:2: ${missingDoc} does not exist`,
      ]);
      expect(out).toContain('5 citation(s)');
    });

    it('passes once the findings are gone, ignoring node_modules, dist and other file types', () => {
      put('notes/plan.md', 'Read docs/api.md, "Learners" first.\n');
      put('src/a.ts', `import { x } from '../common/errors.js';\n// Erasure (docs/api.md, "Learners").\n`);
      put('src/b.ts', '/** Delivery (docs/api.md). */\n');
      put('src/c.test.ts', `describe('pointer (docs/api.md, "Enrolments")', () => {});\n`);
      expect(check(dir)).toEqual({ status: 0, out: '' });
    });
  });
});
