import type { PageRoutes, DashboardDeps } from '../dashboard-deps.js';
import { html } from '../html.js';
import { page } from '../layout.js';
import { sectionsIn } from '../page-sections.js';
import type { OverviewAt, Tile } from './overview-slots.js';

export type { OverviewAt, Tile } from './overview-slots.js';

const tile = ({ label, value, href }: Tile) =>
  value === null
    ? null
    : html`<li><span>${label}</span><strong>${href ? html`<a href="${href}">${value}</a>` : value}</strong></li>`;

/**
 * The overview: what the user's role finds first, the capabilities' figures as tiles, then their sections (docs/
 * dashboard.md, "Shared pages"), all loaded in parallel.
 */
export function overviewPages(r: PageRoutes, d: DashboardDeps): void {
  r.get('/dashboard', async (_ctx, s) => {
    const shared = new Map<string, Promise<unknown>>();
    const at: OverviewAt = {
      once<T>(key: string, load: () => Promise<T>): Promise<T> {
        if (!shared.has(key)) shared.set(key, load());
        // The sections sharing a key read the same thing: the first to ask made it with this type.
        return shared.get(key) as Promise<T>;
      },
    };
    const [landing, tiles, sections, progress] = await Promise.all([
      sectionsIn(d, s, 'overviewLanding', at),
      sectionsIn(d, s, 'overviewTiles', at),
      sectionsIn(d, s, 'overview', at),
      sectionsIn(d, s, 'overviewProgress', at),
    ]);
    return page({
      title: 'Overview',
      current: '/dashboard',
      session: s,
      body: html`<p>Signed in as ${s.user.name} (${s.user.role}).</p>
${landing}
<ul class="tiles">
${tiles.flatMap((t) => t ?? []).map((t) => html`${tile(t)}\n`)}</ul>
${sections.map((x, i) => (i === 0 ? x : html`\n${x}`))}
${progress}`,
    });
  });
}
