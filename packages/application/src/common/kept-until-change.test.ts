import { describe, expect, it } from 'vitest';
import { KeptUntilChange } from './kept-until-change.js';

/** An audit trail whose head the test moves, as an audited write would. */
function trail() {
  const heads = new Map<string, number>();
  return {
    move: (tenantId: string) => heads.set(tenantId, (heads.get(tenantId) ?? 0) + 1),
    head: async (tenantId: string) => {
      const seq = heads.get(tenantId);
      return seq === undefined ? null : { seq, hash: `h${seq}` };
    },
  };
}

describe('KeptUntilChange', () => {
  it('answers again while the head stays, counts again once it moves, per tenant and key', async () => {
    const t = trail();
    const kept = new KeptUntilChange<number>(t);
    let counts = 0;
    const count = async () => ++counts;
    expect(await kept.get('ten_a', 'k', count)).toBe(1);
    expect(await kept.get('ten_a', 'k', count)).toBe(1);
    expect(await kept.get('ten_a', 'other', count)).toBe(2);
    expect(await kept.get('ten_b', 'k', count)).toBe(3);
    t.move('ten_a');
    expect(await kept.get('ten_a', 'k', count)).toBe(4);
    expect(await kept.get('ten_a', 'k', count)).toBe(4);
    // Another tenant's change leaves this one's answer.
    expect(await kept.get('ten_b', 'k', count)).toBe(3);
  });

  it('counts once for views that arrive during a count, and again when the head moved during it', async () => {
    const t = trail();
    const kept = new KeptUntilChange<string>(t);
    let release: (v: string) => void = () => undefined;
    let counts = 0;
    const slow = () => {
      counts++;
      return new Promise<string>((r) => {
        release = r;
      });
    };
    const first = kept.get('ten_a', 'k', slow);
    const second = kept.get('ten_a', 'k', slow);
    await new Promise((r) => setTimeout(r, 10));
    expect(counts).toBe(1);
    // A write lands while the count runs: its answer is for the head read before it, so the next view counts again.
    t.move('ten_a');
    release('before the write');
    expect(await first).toBe('before the write');
    expect(await second).toBe('before the write');
    expect(await kept.get('ten_a', 'k', async () => 'after the write')).toBe('after the write');
  });

  it('does not keep a failed count', async () => {
    const kept = new KeptUntilChange<string>(trail());
    await expect(kept.get('ten_a', 'k', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await kept.get('ten_a', 'k', async () => 'counted')).toBe('counted');
  });
});
