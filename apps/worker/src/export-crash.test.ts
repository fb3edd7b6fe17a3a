import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { exportStorage, type DatabaseTarget } from '@fundi/adapters';
import { CORE_STORAGE, describeEachStorage, POSTGRES_TEST_URL, scratchDir } from '@fundi/adapters/testing';
import { newId, type ExportSnapshot } from '@fundi/domain';
import { aLearner, aTenant, idNumberFor } from '@fundi/domain/testing';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const MAIN = join(ROOT, 'apps/worker/dist/main.js');
const LEARNERS = 12_000;

function spawnWorker(target: DatabaseTarget, dataDir: string): ChildProcess {
  const url =
    target.kind === 'sqlite'
      ? `sqlite:${target.filename}`
      : `${POSTGRES_TEST_URL}${POSTGRES_TEST_URL.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${target.searchPath}`)}`;
  return spawn(process.execPath, [MAIN], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      DATABASE_URL: url,
      FUNDI_DATA_DIR: dataDir,
      FUNDI_MASTER_KEY: Buffer.alloc(32, 4).toString('base64'),
      FUNDI_WEBHOOK_TIMEOUT_MS: '500',
      FUNDI_WORKER_LEASE_MS: '1000',
      FUNDI_WORKER_POLL_MS: '50',
      LOG_LEVEL: 'silent',
    },
  });
}

const exited = (p: ChildProcess) =>
  new Promise<number | null>((ok) => (p.exitCode !== null ? ok(p.exitCode) : p.once('exit', (code) => ok(code))));

async function until(check: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((ok) => setTimeout(ok, 20));
  }
}

beforeAll(() => {
  execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'ignore' });
}, 180_000);

describeEachStorage(
  'an export when its worker is SIGKILLed mid-file',
  (get) => {
    const children: ChildProcess[] = [];
    afterAll(() => {
      for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    });

    it('is redone by the next worker and ends ready once, with one export.ready', async () => {
      const { repos, uow, target, db } = get();
      const t = aTenant();
      await repos.tenants.insert(t);
      await uow.run(async (tx) => {
        for (let i = 0; i < LEARNERS; i++)
          await tx.learners.insert(aLearner({ tenantId: t.id, idNumber: idNumberFor(500_000 + i), email: null }));
      });
      const now = new Date().toISOString();
      const e: ExportSnapshot = {
        id: newId('exp'),
        tenantId: t.id,
        type: 'learners',
        format: 'csv',
        status: 'queued',
        filters: {},
        // `programme` reads each learner's enrolments: a file that takes long enough to be killed in.
        fields: ['id', 'id_number', 'first_name', 'programme'],
        rowCount: null,
        fileName: null,
        size: null,
        contentType: null,
        storageKey: null,
        readiness: null,
        error: null,
        createdBy: 'key_test',
        createdAt: now,
        completedAt: null,
        expiresAt: null,
        purgedAt: null,
      };
      await repos.exports.insert(e);
      await repos.jobs.enqueue({
        id: newId('job'),
        kind: 'exports.run',
        lane: 'long',
        payload: { tenantId: t.id, exportId: e.id },
        dueAt: now,
        maxAttempts: 3,
        idempotencyKey: `export:${e.id}`,
        createdAt: now,
      });
      const status = async () => (await repos.exports.findById(t.id, e.id))!.status;
      const dataDir = scratchDir('fundi-export-crash-');
      const first = spawnWorker(target!, dataDir);
      children.push(first);
      await until(async () => (await status()) === 'processing', 30_000, 'processing');
      await new Promise((ok) => setTimeout(ok, 150));
      first.kill('SIGKILL');
      expect(await exited(first)).toBeNull();
      expect(await status()).toBe('processing');
      const second = spawnWorker(target!, dataDir);
      children.push(second);
      await until(async () => (await status()) === 'ready', 60_000, 'ready');
      second.kill('SIGTERM');
      await exited(second);
      const done = (await repos.exports.findById(t.id, e.id))!;
      expect(done).toMatchObject({ status: 'ready', rowCount: LEARNERS });
      const events = await db!.all<{ type: string }>(
        `SELECT type FROM outbox_events WHERE tenant_id = ? AND type IN ('export.ready', 'export.completed')`,
        [t.id],
      );
      expect(events.map((x) => x.type).sort()).toEqual(['export.completed', 'export.ready']);
      const job = await db!.first<{ attempts: number }>(`SELECT attempts FROM jobs WHERE idempotency_key = ?`, [
        `export:${e.id}`,
      ]);
      expect(Number(job!.attempts)).toBeGreaterThanOrEqual(2);
    }, 120_000);
  },
  ['sqlite', 'postgres'],
  [...CORE_STORAGE, exportStorage],
);
