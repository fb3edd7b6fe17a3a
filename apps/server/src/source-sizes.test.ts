import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/**
 * The non-test source files, as `scripts/source-sizes.mjs` selects them: the tracked `.ts` files of
 * `packages/*\/src` and `apps/*\/src` without tests, `testing/` folders, test helpers and fixtures, declaration
 * files and the generated client schema.
 */
const NOT_SOURCE = /\.test\.ts$|\/testing\/|test-|fixture|packages\/client\/src\/schema\.ts|\.d\.ts$/;

function sourceSizes(): { file: string; lines: number }[] {
  const tracked = execFileSync('git', ['ls-files', '--', 'packages/*/src/**.ts', 'apps/*/src/**.ts'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return tracked
    .split('\n')
    .filter((file) => file.endsWith('.ts') && !NOT_SOURCE.test(file))
    .map((file) => ({ file, lines: readFileSync(`${ROOT}/${file}`, 'utf8').split('\n').length - 1 }));
}

describe('source files hold one meaning each (docs/architecture.md, "File sizes")', () => {
  it('keeps the median under 60 lines and the 90th percentile under 150', () => {
    const files = sourceSizes();
    const sorted = files.map((f) => f.lines).sort((a, b) => a - b);
    // The line at half and at nine tenths of the sorted counts, as `sort -n | sed -n "$((n*9/10))p"` reads it.
    const at = (share: number) => sorted[Math.max(0, Math.floor(sorted.length * share) - 1)]!;
    const largest = files
      .sort((a, b) => b.lines - a.lines)
      .slice(0, 15)
      .map((f) => `${f.lines} ${f.file}`)
      .join('\n');
    const figures = `${files.length} files, median ${at(0.5)}, p90 ${at(0.9)}; the largest (split by meaning):\n${largest}`;
    expect(files.length, figures).toBeGreaterThan(500);
    expect(at(0.5), figures).toBeLessThan(60);
    expect(at(0.9), figures).toBeLessThan(150);
  });
});
