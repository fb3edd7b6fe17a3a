import './as-started.js';
import { join } from 'node:path';
import { writeSync } from 'node:fs';
import { T, closeContainer, resolve, useCasesOf, type DatabaseTarget } from '@fundi/adapters';
import { operator } from '@fundi/application';
import { NO_CONTACT_PREFERENCES, emptyProfile, newId, type LearnerSnapshot } from '@fundi/domain';
import { appStorage, containerFor, exportsCapability, httpApp, migrateAll, tenants, workerFor } from '@fundi/server';
import { idNumberFor } from '../fixtures.js';
import { announce } from './ready.js';
import { scratchDir } from '../scratch.js';

// The real server with its worker (SQLite, encrypted files on local disk) and BENCH_EXPORT_LEARNERS learners
// that are ready for QCTO01, so exports run through the worker over that many rows.
const N = Number(process.env.BENCH_EXPORT_LEARNERS ?? 100_000);
// Seeding runs in its own process (without BENCH_EXPORT_DIR) so the serving process starts with none of its garbage: the
// export's memory growth is then measured against a server that has only started.
const reuse = process.env.BENCH_EXPORT_DIR;
const dir = reuse ?? scratchDir('fundi-bench-exports-');
const database: DatabaseTarget = { kind: 'sqlite', filename: join(dir, 'fundi.sqlite') };
if (!reuse) await migrateAll(database);
const config = {
  database,
  masterKey: Buffer.alloc(32, 1),
  logLevel: 'info',
  authCacheMs: 0,
  anonymousLimits: { perMinute: 1_000_000, perDay: null },
  trustProxy: false,
  fileStore: { kind: 'local' as const, dir: join(dir, 'files') },
};
const c = containerFor(config);
if (reuse) {
  const worker = workerFor(c, { leaseMs: 60_000, pollMs: 50, concurrency: 8, graceMs: 1000 });
  await worker.start();
  const server = httpApp(c, config).listen(0, '127.0.0.1', () => announce(server, { database: database.filename }));
} else {
  const created = await useCasesOf(c, tenants).createTenant.execute({
    slug: `bench-${Date.now()}`,
    name: 'Bench',
    plan: 'enterprise',
  });
  const tenantId = created.tenant.id;
  const db = resolve(c, T.SqlDb);
  await db.run('UPDATE tenants SET limit_overrides = ? WHERE id = ?', [
    JSON.stringify({ perMinute: 1_000_000_000, perDay: null }),
    tenantId,
  ]);
  const { uow } = appStorage(db);
  /** Names take letters only in the regulator's files: n written in base 26 with a-z. */
  const letters = (n: number) => n.toString(26).replace(/./g, (d) => String.fromCharCode(97 + Number.parseInt(d, 26)));
  const home = { line1: '12 Vilakazi Street', line2: 'Orlando West', line3: 'Soweto', postalCode: '1804' };
  for (let start = 0; start < N; start += 5_000) {
    await uow.run(async (tx) => {
      for (let i = start; i < Math.min(N, start + 5_000); i++)
        await tx.learners.insert({
          ...emptyProfile(),
          id: newId('lrn'),
          tenantId,
          dateOfBirth: '1990-01-04',
          citizenship: 'citizen',
          alternateId: null,
          alternateIdType: null,
          ...NO_CONTACT_PREFERENCES,
          createdAt: new Date().toISOString(),
          updatedAt: new Date().toISOString(),
          firstName: `First${letters(i)}`,
          lastName: `Last${letters(i)}`,
          idNumber: idNumberFor(i),
          email: `learner${i}@example.co.za`,
          mobile: '+27821234567',
          title: 'Ms',
          gender: i % 10_000 < 5_000 ? 'F' : 'M',
          equityCode: 'BA',
          nationalityCode: 'SA',
          homeLanguageCode: 'Zul',
          citizenResidentStatusCode: 'SA',
          socioeconomicStatusCode: '01',
          disabilityStatusCode: 'N',
          immigrantStatus: '03',
          homeAddress: home,
          postalAddress: home,
          provinceCode: '7',
          statssaAreaCode: '798',
          popiActAgree: true,
          popiActDate: '2026-01-15',
        } satisfies LearnerSnapshot);
    });
  }
  await useCasesOf(c, exportsCapability).exports.putSettings(operator(tenantId), { sdpCode: 'SDP0012345' });
  writeSync(3, `${JSON.stringify({ port: 0, key: created.apiKey.key, tenantId, dir, database: database.filename })}\n`);
  await closeContainer(c);
  process.exit(0);
}
