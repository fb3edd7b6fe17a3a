import { describe, expect, it } from 'vitest';
import { formA } from './forms/form-a.js';
import { mountForm } from './mount.js';
import { locationOf } from './route-answers.js';
import { RouteTable } from './route-table.js';
import { route, type RouteDef } from './routes/route.js';
import { z } from './schemas/common.js';

const Thing = z.object({ id: z.string(), thingId: z.string() });
const form = formA({ encode: (s) => s, decode: (s) => s });

const created = (path: string, location?: (t: { thingId: string }) => string) =>
  route({
    operationId: 'makeThing',
    summary: 'make',
    tag: 'Test',
    method: 'post',
    path,
    scope: 'any',
    success: { status: 201, schema: Thing, description: 'made' },
    ...(location ? { location } : {}),
    handle: async () => ({ id: 'thg_1', thingId: 'thg_2' }),
  });
const read = (path: string) =>
  route({
    operationId: 'readThing',
    summary: 'read',
    tag: 'Test',
    method: 'get',
    path,
    scope: 'any',
    success: { status: 200, schema: Thing, description: 'the thing' },
    handle: async () => ({ id: 'thg_1', thingId: 'thg_2' }),
  });
const readable = (...routes: RouteDef[]) => new Set(routes.filter((r) => r.method === 'get').map((r) => r.path));

describe("a 201's Location", () => {
  it('is refused at mount when the route list reads the new resource nowhere and the route names no place', () => {
    expect(() => mountForm(new RouteTable(), form, [created('/things')])).toThrow('makeThing');
    expect(() => mountForm(new RouteTable(), form, [created('/things'), read('/things/{id}')])).not.toThrow();
    expect(() =>
      mountForm(new RouteTable(), form, [created('/things/declare', (t) => `/things/${t.thingId}`)]),
    ).not.toThrow();
  });

  it("points at the item of a collection, a singleton itself, or the route's own place under the request's prefix", () => {
    const item = locationOf(created('/things'), readable(read('/things/{id}')))!;
    expect(item('/api/v1/tenants/acme', '/api/v1/tenants/acme/things/', { id: 'thg 1' })).toBe(
      '/api/v1/tenants/acme/things/thg%201',
    );
    const self = locationOf(created('/things/{id}/note'), readable(read('/things/{id}/note')))!;
    expect(self('/api/v1', '/api/v1/things/thg_1/note', {})).toBe('/api/v1/things/thg_1/note');
    const own = locationOf(
      created('/things/declare', (t) => `/things/${t.thingId}`),
      readable(read('/things/{id}')),
    )!;
    expect(own('/v1/tenants/acme', '/v1/tenants/acme/things/declare', { id: 'thg_1', thingId: 'thg_2' })).toBe(
      '/v1/tenants/acme/things/thg_2',
    );
    expect(locationOf(read('/things/{id}'), readable())).toBeNull();
  });
});
