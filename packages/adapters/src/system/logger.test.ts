import { describe, expect, it } from 'vitest';
import { LineBatcher } from './logger.js';

function sink() {
  const writes: string[] = [];
  let synced = 0;
  return {
    writes,
    synced: () => synced,
    write: (s: string) => {
      writes.push(s);
      return true;
    },
    flushSync: () => {
      synced++;
    },
  };
}

describe('LineBatcher', () => {
  it('hands lines on in batches of at least the given size, in order', () => {
    const out = sink();
    const b = new LineBatcher(out, 20);
    for (let i = 0; i < 10; i++) b.write(`line ${i}\n`);
    expect(out.writes.length).toBeLessThan(10);
    expect(out.writes.every((w) => w.length >= 20)).toBe(true);
    b.pass();
    expect(out.writes.join('')).toBe(Array.from({ length: 10 }, (_, i) => `line ${i}\n`).join(''));
  });

  it('loses nothing at exit: flushSync hands on what is collected, then flushes the destination', () => {
    const out = sink();
    const b = new LineBatcher(out, 4096);
    b.write('a\n');
    b.write('b\n');
    expect(out.writes).toEqual([]);
    b.flushSync();
    expect(out.writes).toEqual(['a\nb\n']);
    expect(out.synced()).toBe(1);
    b.pass();
    expect(out.writes).toHaveLength(1);
  });
});
