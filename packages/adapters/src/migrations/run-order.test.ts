import { describe, expect, it } from 'vitest';
import type { CapabilityStorage } from '../storage/capability-storage.js';
import { migrationsOf } from '../storage/capability-storage.js';
import type { Migration } from './migration.js';
import { inRunOrder, parseMigrationName } from './run-order.js';

const aMigration = (name: string, formerly?: string): Migration => ({
  name,
  ...(formerly ? { formerly } : {}),
  up: async () => {},
  down: async () => {},
});
const names = (ms: readonly Migration[]) => ms.map((m) => m.name);
const aPart = (...migrations: Migration[]) => ({ migrations }) as unknown as CapabilityStorage<object>;

describe('migration names', () => {
  it('are <capability>/<YYYYMMDDHHMM>-<what>', () => {
    expect(parseMigrationName('hr-sync/202611232341-hr-sync')).toEqual({
      capability: 'hr-sync',
      at: '202611232341',
      what: 'hr-sync',
    });
    for (const bad of [
      '001-foundation',
      'learners/20261124230-live-index',
      'learners/2026112423051-live-index',
      'learners/202611242305_live-index',
      'learners/202611242305-',
      'Learners/202611242305-live-index',
      'learners/202611242305-Live-Index',
      'learners/202611242305-live--index',
      '/202611242305-live-index',
      'learners/sub/202611242305-live-index',
      'learners/202613242305-live-index',
      'learners/202602302305-live-index',
      'learners/202611242405-live-index',
      'learners/202611242360-live-index',
    ])
      expect(() => parseMigrationName(bad), bad).toThrow(/is not named <capability>\/<YYYYMMDDHHMM>-<what>/);
  });
});

describe('the run order', () => {
  it('is by timestamp, then capability, whatever the order given', () => {
    const given = [
      aMigration('webhooks/202611270940-retention'),
      aMigration('learners/202611242305-live-index'),
      aMigration('evidence/202611242305-awaiting-upload'),
      aMigration('platform/202611211022-foundation'),
      aMigration('notifications/202611270940-retention-indexes'),
    ];
    expect(names(inRunOrder(given))).toEqual([
      'platform/202611211022-foundation',
      'evidence/202611242305-awaiting-upload',
      'learners/202611242305-live-index',
      'notifications/202611270940-retention-indexes',
      'webhooks/202611270940-retention',
    ]);
  });

  it('refuses a name used twice, two migrations of one capability in one minute, and a former name used twice', () => {
    expect(() =>
      inRunOrder([aMigration('learners/202611242305-live-index'), aMigration('learners/202611242305-live-index')]),
    ).toThrow('Two migrations are named learners/202611242305-live-index');
    expect(() =>
      inRunOrder([aMigration('learners/202611242305-live-index'), aMigration('learners/202611242305-index-trim')]),
    ).toThrow(
      'Migrations learners/202611242305-live-index and learners/202611242305-index-trim have the same capability and timestamp',
    );
    expect(() =>
      inRunOrder([
        aMigration('learners/202611242305-live-index', '020-learner-live-index'),
        aMigration('learners/202611242306-index-trim', '020-learner-live-index'),
      ]),
    ).toThrow('were both formerly 020-learner-live-index');
  });

  it('is what migrationsOf gives for storage parts, each listing its own capability only', () => {
    const learners = aPart(aMigration('learners/202611242305-live-index'), aMigration('learners/202611232340-alt'));
    const platform = aPart(aMigration('platform/202611211022-foundation'));
    expect(names(migrationsOf([learners, platform]))).toEqual([
      'platform/202611211022-foundation',
      'learners/202611232340-alt',
      'learners/202611242305-live-index',
    ]);
    const mixed = aPart(aMigration('learners/202611242305-live-index'), aMigration('training/202611242231-samples'));
    expect(() => migrationsOf([mixed])).toThrow('One storage part lists migrations of learners and training');
    expect(() => migrationsOf([aPart(aMigration('030-erasure-copies'))])).toThrow(/is not named/);
  });
});
