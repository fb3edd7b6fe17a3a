import './as-started.js';
import { useCasesOf } from '@fundi/adapters';
import { hrSyncCapability, training } from '@fundi/server';
import { benchWorld, serve } from './bench-world.js';

// The real server over a fresh SQLite file: a tenant without rate limits, a programme, HR sync enabled with a key.
const world = await benchWorld({
  // Inbound HR calls carry no API key: they count against the per-address limit, raised here like the tenant's.
  anonymousPerMinute: 1_000_000_000,
});
const { c, tenant } = world;
const { actor } = tenant;
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

serve(world, { key: tenant.apiKey.key, hrKey, slug: tenant.tenant.slug });
