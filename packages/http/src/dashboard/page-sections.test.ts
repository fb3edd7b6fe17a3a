import type { Actor } from '@fundi/application';
import type { SessionContext, StaffView } from '@fundi/application/staff';
import type { Role, Scope } from '@fundi/domain';
import { describe, expect, it } from 'vitest';
import type { DashboardDeps, PageSection, SlotOf } from './dashboard-deps.js';
import { sectionsIn, sectionsOf } from './page-sections.js';
import './pages/settings-slots.js';

type Limits = PageSection<SlotOf<'settingsLimits'>>;
const at = { limits: { perMinute: 60, perDay: null, storageBytes: 1024 } };

/** A section of the settings page's limits that shows one row, its label, and records when it was asked. */
function row(label: string, order: number, asked: string[], more: Partial<Limits> = {}): Limits {
  return {
    order,
    ...more,
    async render() {
      asked.push(label);
      return [{ label, value: order }];
    },
  };
}

/** A session of `role` granted `scopes` (its tenant aside: `sectionsIn` reads the role and the scopes). */
function session(role: Role, scopes: Scope[]): SessionContext {
  const actor: Actor = { tenantId: 't', id: 'key_1', role, scopes };
  const user: StaffView = {
    id: 'usr_1',
    email: 'a@example.org',
    name: 'A',
    role,
    status: 'active',
    hasPassword: true,
    createdAt: '',
  };
  return { user, actor, tenant: {}, csrfToken: '', expiresAt: '' } as SessionContext;
}

describe('the shared pages\' sections (docs/dashboard.md, "Shared pages")', () => {
  it('composes every part by slot, sorted by order, equal orders in the parts order', () => {
    const asked: string[] = [];
    const sections = sectionsOf([
      { sections: { settingsLimits: [row('b', 20, asked), row('a', 10, asked)] } },
      { nav: [] },
      { sections: { settingsLimits: [row('c', 10, asked)] } },
    ]);
    expect(sections.settingsLimits?.map((x) => x.order)).toEqual([10, 10, 20]);
  });

  it('loads the sections a role may see, all at once, and gives null in the place of the others', async () => {
    const asked: string[] = [];
    const sections = sectionsOf([
      {
        sections: {
          settingsLimits: [
            row('everyone', 10, asked),
            row('readers', 20, asked, { scope: 'usage:read' }),
            row('admins', 30, asked, { role: 'admin' }),
          ],
        },
      },
    ]);
    const d = { sections } as DashboardDeps;
    const viewer = await sectionsIn(d, session('viewer', ['usage:read']), 'settingsLimits', at);
    expect(viewer).toEqual([[{ label: 'everyone', value: 10 }], [{ label: 'readers', value: 20 }], null]);
    expect(asked).toEqual(['everyone', 'readers']);
    const admin = await sectionsIn(d, session('admin', []), 'settingsLimits', at);
    expect(admin.map((x) => x?.[0]?.label ?? null)).toEqual(['everyone', null, 'admins']);
  });

  it('starts every section before any finishes', async () => {
    const started: number[] = [];
    let release: () => void = () => {};
    const gate = new Promise<void>((ok) => {
      release = ok;
    });
    const slow = (order: number): Limits => ({
      order,
      async render() {
        started.push(order);
        await gate;
        return [];
      },
    });
    const d = {
      sections: sectionsOf([{ sections: { settingsLimits: [slow(1), slow(2), slow(3)] } }]),
    } as DashboardDeps;
    const all = sectionsIn(d, session('admin', []), 'settingsLimits', at);
    expect(started).toEqual([1, 2, 3]);
    release();
    expect(await all).toEqual([[], [], []]);
  });
});
