import { expect, it } from 'vitest';
import { settled, upload } from '../testing/import-fixtures.js';
import { A, B, HEADER, describeEvidenceImportSuite } from './evidence-import-fixture.js';

/** Paging an evidence import's errors by cursor (Form A) and offset (Form B). */
describeEvidenceImportSuite('evidence imports over HTTP: error pages', (world) => {
  it('pages many errors by errorsCursor (Form A) and errorsOffset (Form B); a tampered or foreign cursor is invalid', async () => {
    const { s, admin, idNumber } = world();
    const lines = [HEADER];
    for (let i = 0; i < 1050; i++) lines.push(`${idNumber},,KM-01,bad-type,f${i}.pdf,`);
    const r = await upload(s, admin, A, 'evidence', lines.join('\n'));
    const v = await settled(s, admin, A, r.body.id, ['validated'], '?errorsLimit=1');
    expect(v).toMatchObject({ errorCount: 1050, validRows: 0 });
    const rows: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const q: string = cursor ? `&errorsCursor=${encodeURIComponent(cursor)}` : '';
      const page = await s.call('GET', `${A}/imports/${r.body.id}?errorsLimit=400${q}`, admin);
      expect(page.status).toBe(200);
      expect(page.body.errorsPage).toMatchObject({ limit: 400, total: 1050, offset: rows.length });
      rows.push(...page.body.errors.map((e: { row: number }) => e.row));
      cursor = page.body.errorsPage.nextCursor;
      expect(page.body.errorsPage.hasMore).toBe(cursor !== null);
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(rows).toEqual(Array.from({ length: 1050 }, (_, i) => i + 2));

    const b = await s.call('GET', `${B}/imports/${r.body.id}?errorsLimit=100&errorsOffset=1000`, admin);
    expect(b.body.errors).toHaveLength(50);
    expect(b.body.errorsPage).toEqual({ offset: 1000, limit: 100, total: 1050, hasMore: false, nextCursor: null });

    const first = await s.call('GET', `${A}/imports/${r.body.id}?errorsLimit=10`, admin);
    const good: string = first.body.errorsPage.nextCursor;
    const at = Math.floor(good.length / 2);
    const tampered = `${good.slice(0, at)}${good[at] === 'A' ? 'B' : 'A'}${good.slice(at + 1)}`;
    const bad = await s.call('GET', `${A}/imports/${r.body.id}?errorsCursor=${encodeURIComponent(tampered)}`, admin);
    expect(bad.status).toBe(422);
    expect(bad.body.error.details).toEqual([{ field: 'errorsCursor', message: expect.any(String) }]);
    const badB = await s.call('GET', `${B}/imports/${r.body.id}?errorsCursor=${encodeURIComponent(tampered)}`, admin);
    expect(badB.status).toBe(400);
    expect(badB.body.error.details).toMatchObject({ field: 'errorsCursor' });

    const other = await upload(s, admin, A, 'evidence', `${HEADER}\n${idNumber},,KM-01,bad-type,x.pdf,\n`);
    await settled(s, admin, A, other.body.id, ['validated']);
    const foreign = await s.call(
      'GET',
      `${A}/imports/${other.body.id}?errorsCursor=${encodeURIComponent(good)}`,
      admin,
    );
    expect(foreign.status).toBe(422);
    const otherTenant = (await s.tenant('evimp-other')).key;
    expect(
      (await s.call('GET', `${A}/imports/${r.body.id}?errorsCursor=${encodeURIComponent(good)}`, otherTenant)).status,
    ).toBe(404);
    const both = await s.call(
      'GET',
      `${A}/imports/${r.body.id}?errorsCursor=${encodeURIComponent(good)}&errorsOffset=3`,
      admin,
    );
    expect(both.status).toBe(422);
    const resumed = await s.call(
      'GET',
      `${A}/imports/${r.body.id}?errorsLimit=5&errorsCursor=${encodeURIComponent(good)}`,
      admin,
    );
    expect(resumed.body.errors.map((e: { row: number }) => e.row)).toEqual([12, 13, 14, 15, 16]);
  });
});
