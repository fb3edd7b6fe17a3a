import { describe, expect, it } from 'vitest';
import { csvExportType } from './export-type.js';
import { exportTypesOf, OWN_EXPORT_TYPES } from './own-export-types.js';

interface Row {
  id: string;
  n: number;
}

const things = csvExportType({
  name: 'things',
  label: 'Things (CSV)',
  columns: { id: (r: Row) => r.id, n: (r: Row) => r.n, costly: () => 'x' },
  costly: ['costly'],
  async *rows(_repos: object, _tenantId, f) {
    yield [{ id: f.status ?? 'a', n: 1 }];
    yield [{ id: 'b', n: 2 }];
  },
});

async function text(gen: AsyncIterable<Buffer>): Promise<string> {
  let out = '';
  for await (const b of gen) out += b.toString('utf8');
  return out;
}

describe('an offered export type', () => {
  it('has every column to choose from and, by default, all but the costly ones', () => {
    expect(things.format).toBe('csv');
    expect(things.csv?.columns).toEqual(['id', 'n', 'costly']);
    expect(things.csv?.defaults).toEqual(['id', 'n']);
  });

  it("writes the chosen columns of the reader's rows as CSV, counting the rows", async () => {
    const count = { rows: 0 };
    const csv = await text(things.csv!.chunks({}, 'ten_1', { status: 'z' }, ['n', 'id'], count, new Map()));
    expect(csv).toBe('\uFEFFn,id\r\n1,z\r\n2,b\r\n');
    expect(count.rows).toBe(2);
  });

  it('is listed in the order offered; a name offered twice fails', () => {
    expect(exportTypesOf([[things], OWN_EXPORT_TYPES]).map((t) => t.name)).toEqual([
      'things',
      'full',
      'qcto01',
      'qcto02',
      'atr',
      'wsp',
    ]);
    expect(() => exportTypesOf([[things], [things]])).toThrow('The export type things is offered twice');
  });
});
