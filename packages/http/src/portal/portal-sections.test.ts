import type { PortalSessionContext } from '@fundi/application/portal';
import { describe, expect, it } from 'vitest';
import type { PortalHttpDeps, PortalSection, PortalSlotOf } from './portal-deps.js';
import { portalSectionsIn, portalSectionsOf } from './portal-sections.js';
import './pages/home-slots.js';

type Notice = PortalSection<PortalSlotOf<'homeNotice'>>;
const s = {} as PortalSessionContext;

/** A notice section saying `text` when the query has `key`, recording when it was asked. */
function notice(text: string, order: number, asked: string[], key = text): Notice {
  return {
    order,
    async render(_d, _s, at) {
      asked.push(text);
      return at.query[key] === '1' ? text : null;
    },
  };
}

describe('the sections of the portal\'s pages (docs/dashboard.md, "Learner portal")', () => {
  it('composes every part by slot, sorted by order, equal orders in the parts order', () => {
    const asked: string[] = [];
    const sections = portalSectionsOf([
      { sections: { homeNotice: [notice('b', 20, asked), notice('a', 10, asked)] } },
      { pages: [] },
      { sections: { homeNotice: [notice('c', 10, asked)] } },
    ]);
    expect(sections.homeNotice?.map((x) => x.order)).toEqual([10, 10, 20]);
  });

  it('loads every section of the slot, in order, and gives null where one has nothing to show', async () => {
    const asked: string[] = [];
    const d = {
      sections: portalSectionsOf([{ sections: { homeNotice: [notice('b', 20, asked), notice('a', 10, asked)] } }]),
    } as PortalHttpDeps;
    expect(await portalSectionsIn(d, s, 'homeNotice', { query: { b: '1' } })).toEqual([null, 'b']);
    expect(asked).toEqual(['a', 'b']);
    expect(await portalSectionsIn({ sections: {} } as PortalHttpDeps, s, 'homeNotice', { query: {} })).toEqual([]);
  });

  it('starts every section before any finishes', async () => {
    const started: number[] = [];
    let release: () => void = () => {};
    const gate = new Promise<void>((ok) => {
      release = ok;
    });
    const slow = (order: number): Notice => ({
      order,
      async render() {
        started.push(order);
        await gate;
        return null;
      },
    });
    const d = { sections: portalSectionsOf([{ sections: { homeNotice: [slow(1), slow(2)] } }]) } as PortalHttpDeps;
    const all = portalSectionsIn(d, s, 'homeNotice', { query: {} });
    expect(started).toEqual([1, 2]);
    release();
    expect(await all).toEqual([null, null]);
  });
});
