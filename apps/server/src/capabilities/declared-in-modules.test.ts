import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, ownedBy, sourceFiles } from '../testing/capability-files.js';
import { STORAGE_ONLY } from './index.js';

const caps = STORAGE_ONLY();
const moduleOf = (name: string) =>
  `apps/server/src/capabilities/${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}.ts`;
const files = sourceFiles();

/**
 * Files that name other capabilities' scopes or events by the handful without declaring them: they use them.
 * Anything else naming those of three or more capabilities is a hand-written shared list.
 */
const CONSUMERS: Record<string, string> = {
  'packages/application/src/notifications/trigger-sources.ts': "notifications' triggers react to others' events",
};

describe('a capability declares its scopes, id prefixes and events in its own module', () => {
  it('its scopes and prefixes in its module file, its events in a file of its own', () => {
    for (const c of caps) {
      const module = readFileSync(join(ROOT, moduleOf(c.name)), 'utf8');
      for (const s of Object.keys(c.declares?.scopes ?? {})) expect(module, `${c.name}: ${s}`).toContain(`'${s}'`);
      for (const p of c.declares?.ids ?? []) expect(module, `${c.name}: ${p}`).toContain(`'${p}'`);
      for (const e of Object.keys(c.declares?.events ?? {})) {
        const declaring = files.filter((f) => f.text.includes(`'${e}'`) && ownedBy(f.file, c.name));
        expect(declaring.length, `${c.name}: ${e} in a file of its own`).toBeGreaterThan(0);
      }
    }
  });

  it('no other file lists the scopes or events of several capabilities', () => {
    const owner = new Map<string, string>();
    for (const c of caps)
      for (const key of [...Object.keys(c.declares?.scopes ?? {}), ...Object.keys(c.declares?.events ?? {})])
        owner.set(`'${key}'`, c.name);
    const lists = files
      .filter((f) => !f.file.startsWith('apps/server/src/capabilities/'))
      .filter((f) => new Set([...owner].filter(([lit]) => f.text.includes(lit)).map(([, c]) => c)).size >= 3)
      .map((f) => f.file);
    expect(lists.sort()).toEqual(Object.keys(CONSUMERS).sort());
  });

  it('ids are made by the capability that declares their prefix (or with the platform’s, by anyone)', () => {
    const prefixOwner = new Map(caps.flatMap((c) => (c.declares?.ids ?? []).map((p) => [p, c.name] as const)));
    const platform = new Set(caps.find((c) => c.name === 'platform')?.declares?.ids ?? []);
    const strays: string[] = [];
    const crossed = new Set<string>();
    // Test builders (the `testing/` folders) make whatever records a test needs.
    for (const f of files.filter((x) => !x.file.includes('/testing/'))) {
      for (const [, prefix] of f.text.matchAll(/newId\('([a-z]+)'/g)) {
        const cap = prefixOwner.get(prefix!);
        if (!cap) strays.push(`${f.file}: ${prefix} is declared by no capability`);
        else if (!platform.has(prefix!) && !ownedBy(f.file, cap)) {
          if (CROSS_IDS[`${f.file} ${prefix}`]) crossed.add(`${f.file} ${prefix}`);
          else strays.push(`${f.file}: ${prefix} is ${cap}'s`);
        }
      }
    }
    expect(strays).toEqual([]);
    // An allowance no file needs any more (the file moved to the capability, or no longer makes the id) goes.
    expect(Object.keys(CROSS_IDS).filter((k) => !crossed.has(k))).toEqual([]);
  });
});

/** Ids one capability makes for another's records, and why. */
const CROSS_IDS: Record<string, string> = {
  'packages/application/src/hr-sync/put-hr-sync.ts whs': "HR's outbound messages go through a webhook subscription",
  'packages/adapters/src/webhooks/webhook-fixtures.ts ten': 'test fixtures of the webhook repositories make a tenant',
};
