import { inRunOrder } from '@fundi/adapters';
import { filesDefiningMigrations, freshDatabase, migrationsExportedBy } from '@fundi/adapters/testing';
import { afterAll, expect, it } from 'vitest';
import { migrateAll } from './index.js';

const db = await freshDatabase('sqlite');
afterAll(() => db.drop());

it('the capabilities run every migration of packages/adapters/src/*/migrations, in run order', async () => {
  const files = (await migrationsExportedBy(filesDefiningMigrations())).flatMap((f) => f.migrations);
  expect(await migrateAll(db.target)).toEqual(inRunOrder(files).map((m) => m.name));
});
