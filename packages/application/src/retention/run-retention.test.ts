import { FixedClock, DOCUMENTED_RETENTION } from '@fundi/testing';
import { describe, expect, it } from 'vitest';
import type { RetentionTask } from './retention-policy.js';

import { RunRetention } from './run-retention.js';

/** A task over `rows` rows past the cut-off whose batches take `msPerRow` each (a scripted wall clock). */
function scripted(rows: number, msPerRow: number) {
  let t = 0;
  let left = rows;
  const sizes: number[] = [];
  const task: RetentionTask = {
    kind: 'jobs',
    async prune(_before, limit) {
      sizes.push(limit);
      const n = Math.min(left, limit);
      left -= n;
      t += n * msPerRow;
      return n;
    },
  };
  return { task, sizes, now: () => t, left: () => left };
}

describe('RunRetention', () => {
  it('gives each kind its cut-off from the policy, and a fixed one to temporary files', async () => {
    const seen: [string, string][] = [];
    const task = (kind: 'jobs' | 'notifications'): RetentionTask => ({
      kind,
      prune: async (before) => {
        seen.push([kind, before.toISOString()]);
        return 0;
      },
    });
    const files: RetentionTask = {
      kind: 'temporaryFiles',
      keepMs: 3_600_000,
      prune: async (before) => {
        seen.push(['files', before.toISOString()]);
        return 0;
      },
    };
    const clock = new FixedClock(new Date('2026-07-01T00:00:00.000Z'));
    await new RunRetention({
      tasks: [task('jobs'), task('notifications'), files],
      policy: DOCUMENTED_RETENTION,
      clock,
      batch: 10,
    }).execute();
    expect(seen).toEqual([
      ['jobs', '2026-06-24T00:00:00.000Z'],
      ['notifications', '2025-07-01T00:00:00.000Z'],
      ['files', '2026-06-30T23:00:00.000Z'],
    ]);
  });

  it('halves batches that take longer than the slice, never below 100 rows; quick ones stay at the most', async () => {
    // 0.3 ms a row: 2,000 rows take 600 ms, 100 rows 30 ms (still over the slice: the floor holds).
    const slow = scripted(4200, 0.3);
    const pruned = await new RunRetention({
      tasks: [slow.task],
      policy: DOCUMENTED_RETENTION,
      clock: new FixedClock(),
      batch: 2000,
      sliceMs: 20,
      now: slow.now,
    }).execute();
    expect(pruned).toEqual({ jobs: 4200 });
    expect(slow.left()).toBe(0);
    expect(slow.sizes).toEqual([2000, 1000, 500, 250, 125, 100, 100, 100, 100]);
    const quick = scripted(20_000, 0.001);
    await new RunRetention({
      tasks: [quick.task],
      policy: DOCUMENTED_RETENTION,
      clock: new FixedClock(),
      batch: 5000,
      now: quick.now,
    }).execute();
    expect(new Set(quick.sizes)).toEqual(new Set([5000]));
  });

  it('stops between batches when its signal fires', async () => {
    const abort = new AbortController();
    const s = scripted(10_000, 0);
    const task: RetentionTask = {
      kind: 'jobs',
      prune: async (b, limit) => {
        const n = await s.task.prune(b, limit);
        abort.abort();
        return n;
      },
    };
    const pruned = await new RunRetention({
      tasks: [task],
      policy: DOCUMENTED_RETENTION,
      clock: new FixedClock(),
      batch: 1000,
    }).execute(abort.signal);
    expect(pruned).toEqual({ jobs: 1000 });
    expect(s.left()).toBe(9000);
  });
});
