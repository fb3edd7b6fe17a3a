#!/usr/bin/env node
// `node scripts/check-citations.mjs [root]`: the repository must stand on its own. Every rule the code relies on
// is written in docs/ (mostly docs/api.md), so code and docs point there, never at decision numbers of planning
// notes (a capital D and a digit), issue numbers, or files that live outside the repository. A pointer to a docs
// section (a docs file followed by a quoted heading, which may omit the heading's parenthesised tail) must name a
// heading that exists. Checks the files git knows
// (tracked, plus new ones not ignored) with source, doc or config extensions, outside node_modules and dist;
// prints `file:line: problem` for each finding and exits 1 when there is any.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const CHECKED = /\.(?:[cm]?[jt]s|tsx|md|json|ya?ml)$/;
const SKIPPED = /(?:^|\/)(?:node_modules|dist)\/|(?:^|\/)package-lock\.json$/;

/** Each rule: what it finds, and the files it applies to (default: every checked file). */
const RULES = [
  { problem: 'decision number', re: /\bD[1-9]\d*\b/ },
  { problem: 'issue number', re: /\bissues?\s*#?\d/i },
  { problem: 'issue number', re: /(?:^|[\s(,])#\d+\b/ },
  { problem: 'file outside the repository', re: /\/work\/shared\b|\bshared\/spec\b/ },
  { problem: 'file outside the repository', re: /\b(?:decisions|service-spec|domain-reference|STYLE|TOOLCHAIN)\.md\b/ },
  // No folder of the repository is called `shared` (the packages' own common modules live in `src/common`).
  { problem: 'file outside the repository', re: /\.\.\/shared\// },
];

/** `docs/api.md, "Learners"`, `docs/api.md "Errors"`, `` `docs/api.md`, "Events and webhooks" ``. */
const SECTION_POINTER = /\bdocs\/([\w.-]+\.md)`?,?\s*"([^"\n]+)"/g;
const DOC_POINTER = /\bdocs\/([\w.-]+\.md)\b/g;

function listFiles(root) {
  const out = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
  });
  return [...new Set(out.split('\0'))]
    .filter((f) => f && CHECKED.test(f) && !SKIPPED.test(f) && existsSync(join(root, f)))
    .sort();
}

function headingsOf(root, doc, cache) {
  if (!cache.has(doc)) {
    const path = join(root, 'docs', doc);
    const text = existsSync(path) ? readFileSync(path, 'utf8') : null;
    cache.set(
      doc,
      text === null
        ? null
        : new Set(
            text
              .split('\n')
              .filter((l) => /^#{1,6}\s/.test(l))
              .map((l) => l.replace(/^#+\s+/, '').trim()),
          ),
    );
  }
  return cache.get(doc);
}

/** Every finding under `root` (a git work tree), as `{ file, line, problem, text }`, in file and line order. */
export function findCitations(root) {
  const findings = [];
  const headings = new Map();
  for (const file of listFiles(root)) {
    const lines = readFileSync(join(root, file), 'utf8').split('\n');
    lines.forEach((text, i) => {
      const problems = new Set();
      for (const rule of RULES) {
        if (rule.re.test(text)) problems.add(rule.problem);
      }
      for (const [, doc] of text.matchAll(DOC_POINTER)) {
        if (headingsOf(root, doc, headings) === null) problems.add(`docs/${doc} does not exist`);
      }
      for (const [, doc, section] of text.matchAll(SECTION_POINTER)) {
        const known = headingsOf(root, doc, headings);
        if (known && ![...known].some((h) => h === section || h.startsWith(`${section} (`)))
          problems.add(`docs/${doc} has no section "${section}"`);
      }
      for (const problem of problems) findings.push({ file, line: i + 1, problem, text: text.trim() });
    });
  }
  return findings;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(process.argv[2] ?? join(fileURLToPath(import.meta.url), '..', '..'));
  const findings = findCitations(root);
  for (const f of findings) process.stdout.write(`${f.file}:${f.line}: ${f.problem}: ${f.text}\n`);
  if (findings.length > 0) {
    process.stdout.write(
      `${findings.length} citation(s) a reader of this repository cannot follow; write the rule in docs/ and point there.\n`,
    );
    process.exit(1);
  }
}
