import './as-started.js';
import { learners } from '@fundi/server';
import { useCasesOf } from '@fundi/adapters';
import { learnerInput } from '../fixtures.js';
import { ON_POSTGRES, benchWorld, serve } from './bench-world.js';

// The real server (auth, rate limiting and request logging on; logs to stdout, which the harness discards),
// over a fresh database with a tenant whose per-key limits are raised so the load is counted but not refused.
const world = await benchWorld({
  followBenchDb: true,
  authCacheMs: Number(process.env.BENCH_AUTH_CACHE_MS ?? (ON_POSTGRES ? 1000 : 0)),
});
const { tenant } = world;
const register = useCasesOf(world.c, learners).registerLearner;
let learnerId = '';
for (let i = 0; i < Number(process.env.BENCH_SEED ?? 1000); i++) {
  const l = await register.execute(tenant.actor, learnerInput(3_000_000 + i));
  if (i === Math.floor(Number(process.env.BENCH_SEED ?? 1000) / 2)) learnerId = l.id;
}
serve(world, { key: tenant.apiKey.key, learnerId, slug: tenant.tenant.slug });
