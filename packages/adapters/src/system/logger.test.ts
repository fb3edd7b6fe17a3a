import { describe, expect, it } from 'vitest';
import pino from 'pino';
import { createAccessLog, LineBatcher } from './logger.js';

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

describe('createAccessLog', () => {
  const line = (key: string | undefined) => ({
    requestId: 'req-1',
    method: 'GET',
    path: '/api/v1/learners/"odd"\u0001\u2028/x',
    status: 200,
    ms: 0.37,
    key,
  });

  it('writes the line a pino logger with the same bindings writes, field for field and in the same order', () => {
    for (const key of ['key_abc', undefined]) {
      const ours: string[] = [];
      const theirs: string[] = [];
      createAccessLog('info', { write: (s: string) => void ours.push(s) }).request(line(key));
      pino({ base: { service: 'fundi', log: 'access' } }, { write: (s: string) => void theirs.push(s) }).info(
        line(key),
        'request',
      );
      expect(ours).toHaveLength(1);
      expect(ours[0]!.endsWith('}\n')).toBe(true);
      const [a, b] = [JSON.parse(ours[0]!), JSON.parse(theirs[0]!)];
      expect(Math.abs(a.time - b.time)).toBeLessThan(1000);
      expect({ ...a, time: 0 }).toEqual({ ...b, time: 0 });
      expect(Object.keys(a)).toEqual(Object.keys(b));
    }
  });

  it('writes at info and below, nothing at warn or silent', () => {
    for (const [level, lines] of [
      ['debug', 1],
      ['info', 1],
      ['warn', 0],
      ['silent', 0],
    ] as const) {
      const out: string[] = [];
      createAccessLog(level, { write: (s: string) => void out.push(s) }).request(line(undefined));
      expect(out).toHaveLength(lines);
    }
  });
});
