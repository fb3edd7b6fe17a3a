import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HEAP_NODE_FLAGS, MIN_HEAP_MB, SEMI_SPACE_MB, growingPercentFor } from './heap.js';

const MB = 1024 * 1024;

describe('growingPercentFor', () => {
  it('lets a small heap reach MIN_HEAP_MB, and keeps the configured percent for one past it', () => {
    const p = growingPercentFor(30, 44 * MB);
    expect(p).toBeGreaterThan(30);
    expect(44 * (1 + p / 100)).toBeGreaterThanOrEqual(MIN_HEAP_MB);
    expect(growingPercentFor(30, (MIN_HEAP_MB / 2) * MB)).toBe(100);
    // A bulk import's live heap (60-80 MB): its 30% only, not 48 MB of room past it.
    expect(growingPercentFor(30, 76 * MB)).toBe(30);
    expect(growingPercentFor(30, 400 * MB)).toBe(30);
    expect(growingPercentFor(30, MIN_HEAP_MB * MB)).toBe(30);
  });
});

describe('HEAP_NODE_FLAGS', () => {
  const scripts = (
    JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
      scripts: Record<string, string>;
    }
  ).scripts;

  it('are the flags npm start and npm run worker start node with, before the script', () => {
    for (const [name, main] of [
      ['start', 'apps/server/dist/main.js'],
      ['worker', 'apps/worker/dist/main.js'],
    ] as const)
      expect(scripts[name]).toContain(`node ${HEAP_NODE_FLAGS.join(' ')} ${main}`);
  });

  it('give node a young generation of semi-spaces of SEMI_SPACE_MB (16 MB each without them)', () => {
    const newSpaceMb = (flags: readonly string[]) =>
      Number(
        execFileSync(process.execPath, [
          ...flags,
          '-e',
          'const keep = []; for (let i = 0; i < 4e6; i++) { keep.push({ i }); if (keep.length > 1e5) keep.length = 0; }' +
            "process.stdout.write(String(require('v8').getHeapSpaceStatistics().find((x) => x.space_name === 'new_space').space_size / 1048576))",
        ]).toString(),
      );
    // The young generation grows to its most under steady allocation: two semi-spaces of the flag's size.
    expect(newSpaceMb(HEAP_NODE_FLAGS)).toBeLessThanOrEqual(2 * SEMI_SPACE_MB);
    expect(newSpaceMb([])).toBeGreaterThan(2 * SEMI_SPACE_MB);
  });
});
