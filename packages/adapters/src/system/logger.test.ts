import { execFile } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import pino from 'pino';
import { buildBeforeAll, REPO_ROOT } from '../testing/worker-processes.js';
import { createAccessLog, LineBatcher } from './logger.js';

function sink() {
  const writes: string[] = [];
  let synced = 0;
  return {
    writes,
    synced: () => synced,
    write: (b: Buffer) => {
      writes.push(b.toString('utf8'));
      return true;
    },
    flushSync: () => {
      synced++;
    },
    writeSync: (b: Buffer) => {
      writes.push(b.toString('utf8'));
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

  it('keeps every character, lines longer than its buffer and batches that follow each other whole', () => {
    const out = sink();
    const b = new LineBatcher(out, 64);
    const lines = [
      'plain\n',
      `${'é'.repeat(100)}\n`,
      'Thandi Nkosí 😀 \u2028\n',
      `${'x'.repeat(5000)}\n`,
      ...Array.from({ length: 50 }, (_, i) => `line ${i} ${'ü'.repeat(i)}\n`),
    ];
    for (const l of lines) b.write(l);
    b.pass();
    expect(out.writes.join('')).toBe(lines.join(''));
  });

  it('writes what it collected at exit even when the destination refuses to flush, and says so', () => {
    const out = sink();
    const b = new LineBatcher(
      {
        ...out,
        flushSync: () => {
          throw new Error('SonicBoom destroyed');
        },
      },
      4096,
    );
    b.write('last words\n');
    expect(() => b.flushSync()).toThrow('SonicBoom destroyed');
    expect(out.writes).toEqual(['last words\n']);
  });

  it('hands on a copy: a batch handed on stays as it was while the next lines are collected', () => {
    const out = sink();
    const held: Buffer[] = [];
    const b = new LineBatcher(
      {
        write: (batch: Buffer) => {
          held.push(batch);
          out.write(batch);
        },
        flushSync: () => {},
        writeSync: () => {},
      },
      8,
    );
    b.write('first line\n');
    b.write('second one\n');
    expect(held.map((h) => h.toString())).toEqual(['first line\n', 'second one\n']);
  });
});

describe('stdout', () => {
  buildBeforeAll();

  it('writes the lines of a logger and the access log to stdout, none lost when the process exits', async () => {
    // The built adapters in a process of their own, as the server writes its logs.
    const script = `
      const { createLogger, createAccessLog } = await import('@fundi/adapters');
      const log = createLogger('info');
      const access = createAccessLog('info');
      for (let i = 0; i < 3000; i++) access.request({ requestId: 'r' + i, method: 'GET', path: '/v1/ñ/' + i, status: 200, ms: 1 });
      log.info({ n: 1 }, 'done');
    `;
    const text = await new Promise<string>((ok, fail) =>
      execFile(
        process.execPath,
        ['--input-type=module', '-e', script],
        { cwd: REPO_ROOT, maxBuffer: 1 << 24 },
        (e, stdout) => (e ? fail(e) : ok(stdout)),
      ),
    );
    const lines = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(3001);
    expect(lines.slice(0, 3000).map((l) => l.requestId)).toEqual(Array.from({ length: 3000 }, (_, i) => `r${i}`));
    expect(lines[1234].path).toBe('/v1/ñ/1234');
    expect(lines[3000].msg).toBe('done');
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
