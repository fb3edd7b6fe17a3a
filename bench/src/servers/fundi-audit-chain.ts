import './as-started.js';
import { benchTenant, benchWorld, serve } from './bench-world.js';

// The real server over BENCH_DB (Postgres for this bench) with BENCH_TENANTS tenants without limits: the audit
// chain bench creates learners in one of them, then spread across all of them.
const world = await benchWorld({ followBenchDb: true, authCacheMs: 1000 });
const keys = [world.tenant.apiKey.key];
for (let i = 1; i < Number(process.env.BENCH_TENANTS ?? 8); i++)
  keys.push((await benchTenant(world.c, `chain-${i}-${Date.now()}`, `Chain ${i}`)).apiKey.key);
serve(world, { keys });
