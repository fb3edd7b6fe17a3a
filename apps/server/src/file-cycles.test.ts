import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from './testing/capability-files.js';

/** A relative specifier a file imports or re-exports from, type-only imports included. */
const IMPORT = /^\s*(?:(?:import|export)\b[^;]*?\bfrom\s*|import\s*)['"](\.{1,2}\/[^'"]+)['"]/gm;

/** Each file's edges to the files of `files` it imports, a specifier `./x.js` naming `x.ts` beside it. */
function importGraph(files: readonly { file: string; text: string }[]): Map<string, string[]> {
  const known = new Set(files.map((f) => f.file));
  return new Map(
    files.map(({ file, text }) => [
      file,
      [...text.matchAll(IMPORT)]
        .map((m) => normalize(join(dirname(file), m[1]!.replace(/\.js$/, '.ts'))))
        .filter((target) => known.has(target)),
    ]),
  );
}

/** The cycles a depth-first walk meets, each as the files on it from its first back to its first. */
function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const done = new Set<string>();
  const path: string[] = [];
  const cycles: string[][] = [];
  const visit = (file: string) => {
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      const at = path.indexOf(next);
      if (at >= 0) cycles.push([...path.slice(at), next]);
      else if (!done.has(next)) visit(next);
    }
    path.pop();
    done.add(file);
  };
  for (const file of [...graph.keys()].sort()) if (!done.has(file)) visit(file);
  return cycles;
}

describe('no source file imports itself through others (docs/architecture.md, "Import cycles")', () => {
  it('finds no cycle among the imports of the non-test source files of packages and apps', () => {
    const graph = importGraph(sourceFiles());
    const edges = [...graph.values()].reduce((n, targets) => n + targets.length, 0);
    // The walk reads the imports at all: the sources import each other thousands of times.
    expect(edges).toBeGreaterThan(1000);
    const found = importCycles(graph).map((cycle) => cycle.join(' -> '));
    expect(
      found,
      `move the shared piece into the file it belongs to, or a file of its own:\n${found.join('\n')}`,
    ).toEqual([]);
  });

  it('reads imports, type-only imports and re-exports, and lists each cycle it meets', () => {
    const graph = importGraph([
      { file: 'p/a.ts', text: "import { b } from './b.js';\nimport type { X } from '../q/x.js';\n" },
      { file: 'p/b.ts', text: "import {\n  type A,\n  c,\n} from './c.js';\n" },
      { file: 'p/c.ts', text: "export * from './a.js';\nimport 'node:fs';\n" },
      { file: 'q/x.ts', text: "import type { Y } from './y.js';\n" },
      { file: 'q/y.ts', text: "import './x.js';\n// from './none.js'\n" },
      { file: 'q/z.ts', text: "import { x } from './x.js';\nconst text = \"import { a } from '../p/a.js'\";\n" },
    ]);
    expect(graph.get('p/c.ts')).toEqual(['p/a.ts']);
    expect(graph.get('q/z.ts')).toEqual(['q/x.ts']);
    expect(importCycles(graph).map((c) => c.join(' -> '))).toEqual([
      'p/a.ts -> p/b.ts -> p/c.ts -> p/a.ts',
      'q/x.ts -> q/y.ts -> q/x.ts',
    ]);
  });
});
