import type { Knex } from 'knex';
import { foundation } from './001-foundation.js';
import { training } from './002-training.js';
import { webhooks } from './003-webhooks.js';
import { eventSubjects } from './004-event-subjects.js';
import { deliveryIndexes } from './005-delivery-indexes.js';

export interface Migration {
  name: string;
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
}

/** Every migration, in order. They run on SQLite and Postgres alike; add new ones at the end. */
export const MIGRATIONS: readonly Migration[] = [foundation, training, webhooks, eventSubjects, deliveryIndexes];

/** In-code source: knex's file loader cannot import .ts under vitest (TOOLCHAIN.md). */
export const migrationSource: Knex.MigrationSource<Migration> = {
  getMigrations: async () => [...MIGRATIONS],
  getMigrationName: (m) => m.name,
  getMigration: async (m) => m,
};
