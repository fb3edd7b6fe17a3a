import type { Migration } from './migration.js';

/** The parts of a migration's name, `<capability>/<at>-<what>`. */
export interface MigrationName {
  capability: string;
  /** The UTC minute it was written, `YYYYMMDDHHMM`. */
  at: string;
  what: string;
}

const KEBAB = '[a-z][a-z0-9]*(?:-[a-z0-9]+)*';
const NAME = new RegExp(`^(${KEBAB})/(\\d{12})-(${KEBAB})$`);

/** Whether `YYYYMMDDHHMM` is a minute that exists (no 13th month, no 25th hour). */
function isMinute(at: string): boolean {
  const part = (i: number, len = 2) => Number(at.slice(i, i + len));
  const [y, mo, d, h, mi] = [part(0, 4), part(4), part(6), part(8), part(10)] as const;
  const t = new Date(Date.UTC(y, mo - 1, d, h, mi));
  return (
    t.getUTCFullYear() === y &&
    t.getUTCMonth() === mo - 1 &&
    t.getUTCDate() === d &&
    t.getUTCHours() === h &&
    t.getUTCMinutes() === mi
  );
}

/** The parts of `name`; throws unless it is `<capability>/<YYYYMMDDHHMM>-<what>` with a minute that exists. */
export function parseMigrationName(name: string): MigrationName {
  const m = NAME.exec(name);
  if (!m || !isMinute(m[2]!))
    throw new Error(`Migration ${JSON.stringify(name)} is not named <capability>/<YYYYMMDDHHMM>-<what>`);
  return { capability: m[1]!, at: m[2]!, what: m[3]! };
}

/**
 * The migrations in the order they run: by timestamp, then by capability, so two capabilities' migrations written
 * in the same minute still have one order and never share a name. Throws on a malformed name, on a name or former
 * name used twice, and on two migrations of one capability with the same timestamp.
 */
export function inRunOrder(migrations: readonly Migration[]): Migration[] {
  const keyed = migrations.map((m) => ({ m, n: parseMigrationName(m.name) }));
  const names = new Set<string>();
  const slots = new Map<string, string>();
  const formerly = new Map<string, string>();
  for (const { m, n } of keyed) {
    if (names.has(m.name)) throw new Error(`Two migrations are named ${m.name}`);
    names.add(m.name);
    const slot = `${n.capability}/${n.at}`;
    const same = slots.get(slot);
    if (same) throw new Error(`Migrations ${same} and ${m.name} have the same capability and timestamp`);
    slots.set(slot, m.name);
    if (m.formerly === undefined) continue;
    const before = formerly.get(m.formerly);
    if (before) throw new Error(`Migrations ${before} and ${m.name} were both formerly ${m.formerly}`);
    formerly.set(m.formerly, m.name);
  }
  return keyed.sort((a, b) => cmp(a.n.at, b.n.at) || cmp(a.n.capability, b.n.capability)).map(({ m }) => m);
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
