import './as-started.js';
import { join } from 'node:path';
import { T, resolve, useCasesOf, type DatabaseTarget } from '@fundi/adapters';
import { operator } from '@fundi/application';
import { containerFor, hrSyncCapability, httpApp, migrateAll, tenants, training } from '@fundi/server';
import { announce } from './ready.js';
import { scratchDir } from '../scratch.js';

// The real server over a fresh SQLite file: a tenant without rate limits, a programme, HR sync enabled with a key.
const database: DatabaseTarget = {
  kind: 'sqlite',
  filename: join(scratchDir('fundi-bench-'), 'fundi.sqlite'),
};
await migrateAll(database);
const config = {
  database,
  masterKey: Buffer.alloc(32, 1),
  logLevel: 'info',
  authCacheMs: 0,
  // Inbound HR calls carry no API key: they count against the per-address limit, raised here like the tenant's.
  anonymousLimits: { perMinute: 1_000_000_000, perDay: null },
  trustProxy: false,
};
const c = containerFor(config);
const slug = `bench-${Date.now()}`;
const created = await useCasesOf(c, tenants).createTenant.execute({ slug, name: 'Bench', plan: 'enterprise' });
await resolve(c, T.SqlDb).run('UPDATE tenants SET limit_overrides = ? WHERE id = ?', [
  JSON.stringify({ perMinute: 1_000_000_000, perDay: null }),
  created.tenant.id,
]);
const actor = operator(created.tenant.id);
await useCasesOf(c, training).createProgramme.execute(actor, {
  code: 'HR-BENCH',
  name: 'HR bench programme',
  type: 'skills_programme',
  nqfLevel: 3,
  modules: [{ code: 'M01', name: 'Module 1', kind: 'knowledge', credits: 10 }],
});
const hr = useCasesOf(c, hrSyncCapability);
await hr.put.execute(actor, { enabled: true }, 'http://127.0.0.1');
const { key: hrKey } = await hr.rotateKey.execute(actor, 'http://127.0.0.1');

const server = httpApp(c, config).listen(0, '127.0.0.1', () =>
  announce(server, { key: created.apiKey.key, hrKey, slug }),
);
