// Prints the line counts of the non-test source files (docs/architecture.md, "Code style"): the tracked .ts files of
// packages/*/src and apps/*/src, without *.test.ts and testing/ folders (the generated, untracked client schema is
// not counted). `--top N` also lists the N longest.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const root = new URL('..', import.meta.url).pathname;
const tracked = execFileSync('git', ['ls-files', '--', 'packages/*/src/**.ts', 'apps/*/src/**.ts'], {
  cwd: root,
  encoding: 'utf8',
});
const files = tracked
  .split('\n')
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.includes('/testing/'))
  .map((file) => {
    const text = readFileSync(`${root}/${file}`, 'utf8');
    return { file, lines: text.split('\n').length - (text.endsWith('\n') ? 1 : 0) };
  });

const sorted = files.map((f) => f.lines).sort((a, b) => a - b);
// Nearest rank: the smallest count that at least that share of the files do not exceed.
const rank = (p) => sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)];
console.log(`${files.length} files: median ${rank(0.5)}, p90 ${rank(0.9)}, max ${sorted.at(-1)} lines`);
const top = process.argv.indexOf('--top');
if (top > 0)
  for (const f of files.sort((a, b) => b.lines - a.lines).slice(0, Number(process.argv[top + 1] ?? 20)))
    console.log(`${String(f.lines).padStart(5)}  ${f.file}`);
