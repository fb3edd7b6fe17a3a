import { describe, expect, it } from 'vitest';
import { RouteTable, type RouteHandler } from './route-table.js';

const named = (name: string): RouteHandler => Object.assign(async () => {}, { routeName: name });
const nameOf = (h: RouteHandler | undefined) => (h as { routeName?: string } | undefined)?.routeName;

function table(): RouteTable {
  const t = new RouteTable();
  t.add('get', '/api/v1/tenants/:slug/learners/:id', named('get one'));
  t.add('patch', '/api/v1/tenants/:slug/learners/:id', named('update'));
  t.add('post', '/api/v1/learners/:id/erase', named('erase'));
  t.add('get', '/api/v1/evidence/upload', named('literal'));
  t.add('get', '/api/v1/evidence/:id', named('param'));
  return t;
}

describe('RouteTable', () => {
  it('finds the route of a method and path with its parameters, decoded', () => {
    const found = table().find('GET', '/api/v1/tenants/demo/learners/lrn_a%2Fb');
    expect(nameOf(found?.handler)).toBe('get one');
    expect(found?.params).toEqual({ slug: 'demo', id: 'lrn_a/b' });
  });

  it('keeps a parameter that is not valid percent-encoding as it was sent', () => {
    expect(table().find('GET', '/api/v1/tenants/demo/learners/%E0%A4%A')?.params.id).toBe('%E0%A4%A');
  });

  it('allows one trailing slash, letters in either case, and HEAD on a GET route', () => {
    const t = table();
    expect(nameOf(t.find('GET', '/api/v1/tenants/demo/learners/x/')?.handler)).toBe('get one');
    expect(nameOf(t.find('HEAD', '/api/v1/tenants/demo/learners/x')?.handler)).toBe('get one');
    expect(nameOf(t.find('POST', '/API/V1/learners/x/ERASE')?.handler)).toBe('erase');
    expect(t.find('GET', '/api/v1/tenants/demo/learners/x//')).toBeNull();
    expect(t.find('GET', '/api/v1/tenants/demo/learners/')).toBeNull();
    expect(t.find('GET', '/api/v1/tenants/demo/learners/x/y')).toBeNull();
  });

  it('takes the first route added that matches', () => {
    expect(nameOf(table().find('GET', '/api/v1/evidence/upload')?.handler)).toBe('literal');
    expect(nameOf(table().find('GET', '/api/v1/evidence/ev_1')?.handler)).toBe('param');
  });

  it('names the methods a known path has, and none for an unknown one', () => {
    const t = table();
    expect(t.find('DELETE', '/api/v1/tenants/demo/learners/x')).toBeNull();
    expect(t.allowed('/api/v1/tenants/demo/learners/x')).toEqual(['GET', 'HEAD', 'PATCH']);
    expect(t.allowed('/api/v1/learners/x/erase/')).toEqual(['POST']);
    expect(t.allowed('/api/v1/nothing')).toEqual([]);
  });

  it('treats regular-expression characters in a path literally', () => {
    const t = new RouteTable();
    t.add('get', '/api/v1/openapi.json', named('doc'));
    expect(t.find('GET', '/api/v1/openapiXjson')).toBeNull();
    expect(nameOf(t.find('GET', '/api/v1/openapi.json')?.handler)).toBe('doc');
  });
});
