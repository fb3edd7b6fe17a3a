import { RouteTable } from './route-table.js';
import { pageInOrder } from '@fundi/domain';
import { describe, expect, it } from 'vitest';
import { formA } from './forms/form-a.js';
import { mountForm } from './mount.js';
import { route } from './routes/route.js';
import { z } from './schemas/common.js';

const Version = z.object({ version: z.number().int(), note: z.string() });
const list = (cursorKey?: string) =>
  route({
    operationId: 'listThings',
    summary: 'things',
    tag: 'Test',
    method: 'get',
    path: '/things',
    scope: 'any',
    list: cursorKey ? { item: Version, cursorKey } : { item: Version },
    success: { status: 200, description: 'A page' },
    handle: async ({ page }) => pageInOrder([{ version: 1, note: 'a' }], page, (v) => String(v.version)),
  });
const form = formA({ encode: (s) => s, decode: (s) => s });

describe("a list's cursor field", () => {
  it('is refused when the items lack it (id by default), at mount', () => {
    expect(() => mountForm(new RouteTable(), form, [list()])).toThrow('listThings');
    expect(() => mountForm(new RouteTable(), form, [list('versionNumber')])).toThrow('versionNumber');
    expect(() => mountForm(new RouteTable(), form, [list('version')])).not.toThrow();
  });

  it('is what the Form A cursor carries', () => {
    const page = { items: [{ version: 7, note: 'x' }], total: 9, hasMore: true };
    const request = { kind: 'cursor', after: null, limit: 1 } as const;
    const body = form.envelope(page, request, 'scope', 'version') as { pagination: { nextCursor: string } };
    expect(body.pagination.nextCursor).toMatch(/^7~/);
    expect(form.toPage({ cursor: body.pagination.nextCursor }, 'scope')).toMatchObject({ after: '7' });
    expect(() => form.toPage({ cursor: body.pagination.nextCursor }, 'other scope')).toThrow();
  });
});
