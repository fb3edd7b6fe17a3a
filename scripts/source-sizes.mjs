// Prints the line counts of the non-test source files (docs/architecture.md, "File sizes"): the tracked .ts files of
// packages/*/src and apps/*/src, without tests, testing/ folders, test helpers and fixtures, declaration files and
// the generated client schema; apps/server/src/source-sizes.test.ts selects and ranks them alike. `--top N` also
// lists the N longest.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const root = new URL('..', import.meta.url).pathname;
const NOT_SOURCE = /\.test\.ts$|\/testing\/|test-|fixture|packages\/client\/src\/schema\.ts|\.d\.ts$/;
const tracked = execFileSync('git', ['ls-files', '--', 'packages/*/src/**.ts', 'apps/*/src/**.ts'], {
  cwd: root,
  encoding: 'utf8',
});
const files = tracked
  .split('\n')
  .filter((f) => f.endsWith('.ts') && !NOT_SOURCE.test(f))
  .map((file) => {
    const text = readFileSync(`${root}/${file}`, 'utf8');
    return { file, lines: text.split('\n').length - (text.endsWith('\n') ? 1 : 0) };
  });

const sorted = files.map((f) => f.lines).sort((a, b) => a - b);
// The count at that share of the sorted counts, as `sort -n | sed -n "$((n*9/10))p"` reads it.
const rank = (p) => sorted[Math.max(0, Math.floor(p * sorted.length) - 1)];
console.log(`${files.length} files: median ${rank(0.5)}, p90 ${rank(0.9)}, max ${sorted.at(-1)} lines`);
const top = process.argv.indexOf('--top');
if (top > 0)
  for (const f of files.sort((a, b) => b.lines - a.lines).slice(0, Number(process.argv[top + 1] ?? 20)))
    console.log(`${String(f.lines).padStart(5)}  ${f.file}`);
