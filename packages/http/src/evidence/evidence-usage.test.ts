import { describe, expect, it } from 'vitest';
import { storageChart } from './evidence-usage.js';

const GB = 1024 ** 3;

describe('the storage chart', () => {
  it('draws a bar a day, scaled to the quota, with the 80% and 90% lines and a title and description', () => {
    const days = [
      { day: '2026-11-22', bytes: 1 * GB, files: 10 },
      { day: '2026-11-23', bytes: 2 * GB, files: 20 },
      { day: '2026-11-24', bytes: 4.5 * GB, files: 30 },
    ];
    const svg = storageChart(days, 5 * GB).value;
    expect(svg.match(/<rect /g)).toHaveLength(3);
    expect(svg).toContain('80% of quota');
    expect(svg).toContain('90% of quota');
    expect(svg).toContain('<title id="usage-title">');
    expect(svg).toContain('from 2026-11-22 to 2026-11-24; the last day 4.5 GB of 5.0 GB.');
    // The tallest bar (4.5 of 5 GB) reaches 90% of the plot's height, above the 80% line.
    const heights = [...svg.matchAll(/height="([\d.]+)"/g)].map((m) => Number(m[1]));
    expect(heights[2]! / heights[0]!).toBeCloseTo(4.5, 1);
  });

  it('draws no quota lines without a quota, and says so when nothing is recorded', () => {
    expect(storageChart([{ day: '2026-11-24', bytes: 10, files: 1 }], null).value).not.toContain('of quota');
    expect(storageChart([], null).value).toContain('No storage figures recorded yet.');
  });
});
