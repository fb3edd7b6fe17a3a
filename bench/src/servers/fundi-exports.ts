import './as-started.js';
import { writeSync } from 'node:fs';
import { T, closeContainer, resolve, useCasesOf } from '@fundi/adapters';
import { newId } from '@fundi/domain';
import { NO_CONTACT_PREFERENCES, emptyProfile, type LearnerSnapshot } from '@fundi/domain/learners';
import { appStorage, exportsCapability, workerFor } from '@fundi/server';
import { idNumberFor, letters } from '../fixtures.js';
import { scratchDir } from '../scratch.js';
import { benchContainer, benchTenant, serve, sqliteFile } from './bench-world.js';

// The real server with its worker (SQLite, encrypted files on local disk) and BENCH_EXPORT_LEARNERS learners
// that are ready for QCTO01, so exports run through the worker over that many rows.
const N = Number(process.env.BENCH_EXPORT_LEARNERS ?? 100_000);
// Seeding runs in its own process (without BENCH_EXPORT_DIR) so the serving process starts with none of its garbage: the
// export's memory growth is then measured against a server that has only started.
const reuse = process.env.BENCH_EXPORT_DIR;
const { dir, database, config, c } = await benchContainer({
  dir: reuse ?? scratchDir('fundi-bench-exports-'),
  migrate: !reuse,
  anonymousPerMinute: 1_000_000,
  files: true,
});
const filename = sqliteFile(database);
if (reuse) {
  const worker = workerFor(c, { leaseMs: 60_000, pollMs: 50, concurrency: 8, graceMs: 1000 });
  await worker.start();
  serve({ c, config }, { database: filename });
} else {
  const created = await benchTenant(c);
  const tenantId = created.tenant.id;
  const db = resolve(c, T.SqlDb);
  const { uow } = appStorage(db);
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
  await useCasesOf(c, exportsCapability).exports.putSettings.execute(created.actor, { sdpCode: 'SDP0012345' });
  await closeContainer(c);
  writeSync(3, `${JSON.stringify({ port: 0, key: created.apiKey.key, tenantId, dir, database: filename })}\n`);
  // Idle until the bench stops it: its scratch directory, which holds the database the serving process reads, is
  // removed when it exits.
  process.on('SIGTERM', () => process.exit(0));
  setInterval(() => {}, 1 << 30);
}
