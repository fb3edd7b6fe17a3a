import { navigationOf } from '@fundi/http';
import { describe, expect, it } from 'vitest';
import { STORAGE_ONLY, dashboardPartsOf } from './index.js';

describe("the dashboard's pages and navigation come from the capabilities' declarations", () => {
  it('the navigation is every entry, by order, each shown by its scope or role', () => {
    const nav = navigationOf(dashboardPartsOf(STORAGE_ONLY()));
    expect(nav.map((e) => [e.label, e.href, e.scope ?? e.role ?? 'everyone'])).toEqual([
      ['Overview', '/dashboard', 'everyone'],
      ['Learners', '/dashboard/learners', 'learners:read'],
      ['Programmes', '/dashboard/programmes', 'programmes:read'],
      ['Enrolments', '/dashboard/enrolments', 'enrolments:read'],
      ['Record results', '/dashboard/assessments', 'assessments:write'],
      ['Evidence', '/dashboard/evidence', 'evidence:read'],
      ['Moderation', '/dashboard/moderation', 'assessments:read'],
      ['Webhooks', '/dashboard/webhooks', 'webhooks:read'],
      ['Imports', '/dashboard/imports', 'imports:read'],
      ['Exports', '/dashboard/exports', 'exports:read'],
      ['Notifications', '/dashboard/notifications', 'notifications:read'],
      ['HR sync', '/dashboard/hr-sync', 'admin'],
      ['API keys', '/dashboard/api-keys', 'admin'],
      ['Staff users', '/dashboard/users', 'admin'],
      ['Usage', '/dashboard/usage', 'usage:read'],
      ['Audit', '/dashboard/audit', 'audit:read'],
      ['Settings', '/dashboard/settings', 'everyone'],
    ]);
  });

  it('every capability with pages registers them; two entries to one address fail', () => {
    const parts = dashboardPartsOf(STORAGE_ONLY());
    expect(parts.flatMap((p) => p.pages ?? []).length).toBeGreaterThan(15);
    const twice = { nav: [{ href: '/dashboard/evidence', label: 'Again', order: 1 }], pages: [] };
    expect(() => navigationOf([...parts, twice])).toThrow(
      'Two dashboard navigation entries lead to /dashboard/evidence',
    );
  });

  it('an entry needing a scope no capability declares fails when the dashboard is composed', () => {
    const caps = STORAGE_ONLY();
    const evidence = caps.find((c) => c.name === 'evidence');
    if (!evidence) throw new Error('no evidence capability');
    evidence.dashboard = { nav: [{ href: '/dashboard/x', label: 'X', order: 1, scope: 'nobody:reads' }], pages: [] };
    expect(() => dashboardPartsOf(caps)).toThrow('needs the scope nobody:reads, which no capability declares');
  });
});
