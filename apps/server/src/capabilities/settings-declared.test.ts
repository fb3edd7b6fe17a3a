import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RunRetention } from '@fundi/application';
import { FixedClock } from '@fundi/testing';
import { describe, expect, it } from 'vitest';
import { capabilitiesOf, containerFor } from '../compose.js';
import { ROOT } from '../testing/capability-files.js';
import { retentionPolicyOf } from './declared.js';
import { STORAGE_ONLY, retentionOf } from './index.js';

const ARCHITECTURE = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');

describe('the retention periods come from the capabilities that own the records', () => {
  it('every kind a retention task prunes has its period declared, once; each variable is documented', () => {
    const c = containerFor(
      { database: { kind: 'sqlite', filename: ':memory:' }, masterKey: Buffer.alloc(32, 1), logLevel: 'silent' },
      { storage: { kind: 'memory' } },
    );
    const caps = capabilitiesOf(c);
    const tasks = retentionOf(c, caps);
    const policy = retentionPolicyOf(caps, (p) => p.days);
    for (const task of tasks) if (task.kind !== 'temporaryFiles') expect(policy[task.kind], task.kind).toBeDefined();
    expect(() => new RunRetention({ tasks, policy, clock: new FixedClock(), batch: 100 })).not.toThrow();
    const periods = caps.flatMap((cap) => cap.declares?.retention ?? []);
    for (const p of periods)
      if (p.variable) expect(ARCHITECTURE, p.variable).toMatch(new RegExp(`\\| \`${p.variable}\` +\\|`));
  });

  it('a kind declared twice, or a task of a kind none declares, fails at once', () => {
    const caps = STORAGE_ONLY();
    expect(() => retentionPolicyOf([...caps, ...caps], (p) => p.days)).toThrow(/declares the retention of/);
    const prune = async () => 0;
    expect(
      () => new RunRetention({ tasks: [{ kind: 'jobs', prune }], policy: {}, clock: new FixedClock(), batch: 100 }),
    ).toThrow(/No retention period is declared for "jobs"/);
  });
});
