import { loadavg } from 'node:os';
import { join } from 'node:path';
import { T, closeContainer, resolve, useCasesOf, type DatabaseTarget, type SqlDb } from '@fundi/adapters';
import { newId } from '@fundi/domain';
import { Learner, type LearnerSnapshot } from '@fundi/domain/learners';
import {
  DEFAULT_WORKER_POLL_MS,
  containerFor,
  migrateAll,
  notificationsCapability,
  reposOf,
  tenants,
  workerFor,
} from '@fundi/server';
import { idNumberFor, letters } from './fixtures.js';
import { inTurns, median, withPgSchemas } from './harness.js';
import {
  MESSAGE,
  N,
  cloudSink,
  cpuPerMessage,
  rawMail,
  rawWhatsApp,
  smtpSink,
  type Cpu,
} from './notification-parts.js';
import { scratchDir } from './scratch.js';

const MASTER_KEY = Buffer.alloc(32, 12);
const BULK = 1000;

/** Waits until `f` holds, looking every `everyMs` (the end of a timed run is known to within that). */
async function until(what: string, f: () => Promise<boolean>, everyMs: number, ms = 300_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await f())) {
    if (Date.now() > end) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** Fundi: bulk sends of N notifications through the use case, the worker in this process sending them. */
export async function fundiRun(
  target: DatabaseTarget,
  channel: 'email' | 'whatsapp',
  sink: { smtpPort: number; cloudUrl: string; count: () => number },
  mode: 'end-to-end' | 'worker' = 'end-to-end',
): Promise<Sent> {
  await migrateAll(target);
  const c = containerFor({
    database: target,
    masterKey: MASTER_KEY,
    logLevel: 'silent',
    webhooks: { allowHttp: true, allowHosts: ['127.0.0.1'], timeoutMs: 10_000 },
    notifications: {
      publicUrl: 'https://bench.example',
      channels: {
        smtpUrl: `smtp://127.0.0.1:${sink.smtpPort}`,
        smtpFrom: MESSAGE.from,
        outboxFolder: scratchDir('fundi-bench-outbox-'),
        whatsapp: {
          phoneNumberId: '123456',
          accessToken: 'bench-token-123',
          appSecret: 'bench-app-secret',
          verifyToken: 'bench-verify',
          baseUrl: sink.cloudUrl,
          apiVersion: 'v21.0',
        },
        smtpOptions: { ignoreTLS: true },
      },
    },
  });
  const u = useCasesOf(c, notificationsCapability);
  const db = resolve(c, T.SqlDb) as SqlDb;
  const created = await useCasesOf(c, tenants).createTenant.execute({
    slug: `bench-n-${Date.now()}`,
    name: 'Bench Academy',
    plan: 'enterprise',
  });
  const actor = { tenantId: created.tenant.id, id: 'bench', role: 'admin' as const, scopes: [] };
  await u.notificationSettings.putSettings.execute(actor, { triggers: { welcome: false } });
  const repos = reposOf(c);
  const now = new Date();
  const ids: string[] = [];
  const tag = Date.now() % 100_000;
  for (let i = 0; i < N; i += 500) {
    const part = Array.from({ length: Math.min(500, N - i) }, (_, j) => {
      const k = i + j;
      const l = Learner.register(
        {
          // Each learner's own first name, as real sends have (so each message's content differs), of the length
          // of the raw loop's 'Thandi': two letters and four more that count the learner.
          firstName: `Th${letters(k).padStart(4, 'a')}`,
          lastName: 'Bench',
          idNumber: idNumberFor(tag * 100_000 + k),
          email: `bench${k}@example.org`,
          mobile: `082${String(1000000 + k).slice(-7)}`,
        },
        { id: newId('lrn'), tenantId: actor.tenantId, now },
      ).toSnapshot();
      return { ...l, whatsappConsent: true, whatsappConsentAt: now.toISOString() } as LearnerSnapshot;
    });
    await repos.learners.insertMany(part);
    ids.push(...part.map((l) => l.id));
  }
  // The server's idle poll (200 ms): a job the worker is not told of waits for it, as it would in the product.
  const worker = workerFor(c, { leaseMs: 30_000, pollMs: DEFAULT_WORKER_POLL_MS, concurrency: 8, graceMs: 2000 });
  // End to end, the worker is told of each call's jobs as the server tells its own worker after a write
  // (`nudgeOnWrites`); on Postgres the work signal would wake it too, on SQLite only its poll.
  const bulk = async (nudge: boolean) => {
    for (let i = 0; i < ids.length; i += BULK) {
      await u.notifications.sendBulk.execute(actor, {
        recipientIds: ids.slice(i, i + BULK),
        channel,
        template: channel === 'email' ? 'evidence_approved' : 'assessment_result',
        variables:
          channel === 'email'
            ? { 'evidence.type': 'logbook', 'module.name': 'Module 2: Workplace safety' }
            : { module_name: 'Workplace safety', result: 'competent' },
      });
      if (nudge) worker.nudge();
    }
  };
  const before = sink.count();
  // `worker`: the notifications are queued first, then the worker is started and timed alone; `end-to-end`: the
  // bulk API calls run while the worker sends.
  // CPU of this process per message (µs): the bulk API calls alone (queued first, `worker` mode), and the timed
  // part (the worker, the loopback server and, end to end, the bulk API); steadier than msg/s on a loaded machine.
  let bulkAlone: Sent['bulk'];
  if (mode === 'worker') {
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    await bulk(false);
    const c1 = process.cpuUsage(c0);
    bulkAlone = { us: Math.round((c1.user + c1.system) / N), ms: Math.round(performance.now() - t0) };
  }
  await worker.start();
  const started = performance.now();
  const cpu0 = process.cpuUsage();
  if (mode === 'end-to-end') await bulk(true);
  // The sink's count is looked at every 5 ms (no database work); the notifications' status every 10 ms after it.
  await until(`${N} ${channel} messages`, async () => sink.count() - before >= N, 5);
  await until(
    'every notification marked sent',
    async () => {
      const r = await db.first<{ n: number }>(
        `SELECT count(*) AS n FROM notifications WHERE tenant_id = ? AND status = 'sent'`,
        [actor.tenantId],
      );
      return Number(r?.n ?? 0) >= N;
    },
    10,
  );
  const ms = performance.now() - started;
  const cpu = cpuPerMessage(cpu0, ms);
  await worker.stop();
  u.closeChannels();
  await closeContainer(c);
  return { rate: (N * 1000) / ms, cpu, ...(bulkAlone ? { bulk: bulkAlone } : {}) };
}

/** One measured send: msg/s and this process's CPU per message (µs) with how busy it was (`cpuPerMessage`). */
interface Sent {
  rate: number;
  cpu: Cpu;
  /**
   * Where the bulk API calls run before the worker (`worker` mode): their own CPU per message (µs) and how long the
   * 10 calls took (ms).
   */
  bulk?: { us: number; ms: number };
}

/** Each side's median of its rounds: msg/s, CPU per message and busy share (each its own median). */
function medianOf(rs: readonly Sent[]): Sent {
  const bulk = rs.flatMap((r) => (r.bulk ? [r.bulk] : []));
  return {
    rate: median(rs.map((r) => r.rate)),
    cpu: { us: median(rs.map((r) => r.cpu.us)), busy: median(rs.map((r) => r.cpu.busy)) },
    ...(bulk.length ? { bulk: { us: median(bulk.map((b) => b.us)), ms: median(bulk.map((b) => b.ms)) } } : {}),
  };
}

export async function notificationsBench(opts: { postgres: boolean }): Promise<void> {
  const smtp = await smtpSink();
  const cloud = await cloudSink();
  const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
  process.stdout.write(
    `\n## Notifications (messages per second, end to end, each side the median of ${rounds} rounds in turns with a raw loop)\n`,
  );
  process.stdout.write(
    "| scenario | database | Fundi msg/s | raw msg/s | ratio | rounds' ratios | target | CPU µs/msg (Fundi; raw) | load |\n|---|---|---|---|---|---|---|---|---|\n",
  );
  const cpuText = (s: Sent) =>
    `${s.bulk ? `bulk API ${s.bulk.us} (${s.bulk.ms} ms), ` : ''}timed ${s.cpu.us} (busy ${s.cpu.busy}%)`;
  const line = (what: string, db: string, fundi: Sent[], raw: Sent[]) => {
    const m = medianOf(fundi);
    const base = medianOf(raw);
    const ratio = m.rate / base.rate;
    const each = fundi.map((f, i) => `${((f.rate / raw[i]!.rate) * 100).toFixed(0)}%`).join(', ');
    process.stdout.write(
      `| ${what} | ${db} | ${Math.round(m.rate)} | ${Math.round(base.rate)} | ${(ratio * 100).toFixed(1)}% | ${each} | ${ratio >= 0.5 ? 'MET' : 'MISSED'}: >= 50% | ${cpuText(m)}; ${cpuText(base)} | ${loadavg()[0]!.toFixed(1)} |\n`,
    );
  };
  const channels = (process.env.BENCH_NOTIFICATION_CHANNELS ?? 'email,whatsapp').split(',');
  // Each Fundi figure is measured in turns with its raw loop (after one warm-up pass of each loop for the JIT and
  // connections): BENCH_ROUNDS rounds, the order flipping each round, and each side's median printed, so a machine
  // whose load moves during the bench moves both sides alike.
  if (channels.includes('email')) await rawMail(smtp);
  if (channels.includes('whatsapp')) await rawWhatsApp(cloud.url);
  const measure = async (name: string, targets: () => DatabaseTarget) => {
    for (const mode of ['end-to-end', 'worker'] as const) {
      const how = mode === 'worker' ? 'queued, then the worker alone' : 'bulk API -> worker';
      if (channels.includes('email')) {
        const sink = { smtpPort: smtp.port, cloudUrl: cloud.url, count: () => smtp.count };
        const r = await inTurns(
          { raw: () => rawMail(smtp), fundi: () => fundiRun(targets(), 'email', sink, mode) },
          rounds,
        );
        line(`${N} emails, ${how} -> SMTP`, name, r.fundi, r.raw);
      }
      if (channels.includes('whatsapp')) {
        const sink = { smtpPort: smtp.port, cloudUrl: cloud.url, count: cloud.count };
        const r = await inTurns(
          { raw: () => rawWhatsApp(cloud.url), fundi: () => fundiRun(targets(), 'whatsapp', sink, mode) },
          rounds,
        );
        line(`${N} WhatsApp messages, ${how} -> Cloud API`, name, r.fundi, r.raw);
      }
    }
  };
  try {
    const dir = scratchDir('fundi-bench-ntf-');
    let k = 0;
    await measure('sqlite', () => ({ kind: 'sqlite', filename: join(dir, `run${++k}.db`) }));
    // A schema per Fundi run: two modes, each channel, each round.
    if (opts.postgres)
      await withPgSchemas(2 * channels.length * rounds, (url, schemas) => {
        // Taken from a copy: `withPgSchemas` drops the schemas of the array it gave, after the runs.
        const unused = [...schemas];
        return measure('postgres', () => ({ kind: 'postgres', url, searchPath: unused.shift()!, poolMax: 10 }));
      });
  } finally {
    await smtp.close();
    await cloud.close();
  }
}
