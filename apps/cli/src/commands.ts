import { useCasesOf } from '@fundi/adapters';
import {
  evidenceCapability,
  exportsCapability,
  tenants,
  reposOf,
  migrateAll,
  staff,
  webhookCapability,
  notificationsCapability,
  platform,
} from '@fundi/server';
import { operator, type JobView } from '@fundi/application';
import { REGULATOR_SETTING_FIELDS } from '@fundi/domain';
import type { Container } from 'inversify';
import type { Config } from '@fundi/server';
import { required, UsageError, type Parsed } from './args.js';

export interface Output {
  json(value: unknown): void;
  line(text: string): void;
}

type Command = (p: Parsed, ctx: { config: Config; container: () => Container; out: Output }) => Promise<void>;

const asJson = (p: Parsed) => p.flags.json === true;

export const COMMANDS: Record<string, Command> = {
  async migrate(_p, { config, out }) {
    const applied = await migrateAll(config.database);
    out.line(applied.length ? `Applied: ${applied.join(', ')}` : 'Database is up to date');
  },

  async 'tenants create'(p, { container, out }) {
    const created = await useCasesOf(container(), tenants).createTenant.execute({
      slug: required(p.flags, 'slug'),
      name: required(p.flags, 'name'),
      plan: required(p.flags, 'plan'),
    });
    const { id, key, role, scopes } = created.apiKey;
    if (asJson(p)) return out.json({ tenant: created.tenant, apiKey: { id, key, role, scopes } });
    out.line(`Created tenant ${created.tenant.slug} (${created.tenant.id}), plan ${created.tenant.plan}.`);
    out.line(`Admin API key ${id} (shown only now):\n  ${key}`);
  },

  async 'tenants list'(p, { container, out }) {
    const tenants = (await reposOf(container()).tenants.list()).map(({ id, slug, name, plan }) => ({
      id,
      slug,
      name,
      plan,
    }));
    if (asJson(p)) return out.json(tenants);
    for (const t of tenants) out.line(`${t.slug.padEnd(24)} ${t.plan.padEnd(13)} ${t.id}  ${t.name}`);
  },

  async 'tenants update'(p, { container, out }) {
    const limit = (name: string, scale = 1): unknown => {
      const v = p.flags[name];
      if (v === undefined) return undefined;
      if (v === 'plan') return 'plan';
      if (v === 'none') return null;
      return /^\d+$/.test(String(v)) ? Number(v) * scale : v;
    };
    const r = await useCasesOf(container(), tenants).reconfigureTenant.execute(required(p.flags, 'slug'), {
      plan: p.flags.plan,
      overrides: {
        perMinute: limit('per-minute'),
        perDay: limit('per-day'),
        storageBytes: limit('storage-gb', 1024 ** 3),
      },
    });
    if (asJson(p)) return out.json(r);
    out.line(
      `Tenant ${r.tenant.slug}: plan ${r.tenant.plan}; ${r.limits.perMinute}/min, ${r.limits.perDay ?? 'no cap'}/day per key; storage ${r.limits.storageBytes === null ? 'no cap' : `${r.limits.storageBytes / 1024 ** 3} GB`}.`,
    );
  },

  async 'users create'(p, { config, container, out }) {
    const password = p.flags['password-stdin'] === true ? await readPassword() : undefined;
    const slug = required(p.flags, 'tenant');
    const created = await useCasesOf(container(), staff).createStaffUser.execute(slug, {
      email: required(p.flags, 'email'),
      name: required(p.flags, 'name'),
      role: required(p.flags, 'role'),
      ...(password === undefined ? {} : { password }),
    });
    const base = config.publicUrl || `http://localhost:${config.port}`;
    const link = created.setPasswordToken
      ? `${base}/dashboard/set-password?token=${encodeURIComponent(created.setPasswordToken)}`
      : null;
    if (asJson(p)) return out.json({ user: created.user, setPasswordLink: link });
    out.line(`Created ${created.user.role} ${created.user.email} (${created.user.id}) in tenant ${slug}.`);
    if (link) out.line(`One-time link to choose a password (valid 72 hours, shown only now):\n  ${link}`);
    else out.line(`Sign in at ${base}/dashboard/sign-in?tenant=${encodeURIComponent(slug)}`);
  },

  async 'evidence retention'(p, { container, out }) {
    const evidence = useCasesOf(container(), evidenceCapability).evidence;
    const slug = required(p.flags, 'tenant');
    const tenant = await reposOf(container()).tenants.findBySlug(slug);
    if (!tenant) throw new UsageError(`No tenant ${slug}`);
    if (p.flags.years !== undefined)
      await evidence.setRetentionYears.execute(
        slug,
        /^\d+$/.test(String(p.flags.years)) ? Number(p.flags.years) : p.flags.years,
      );
    const years = await evidence.retentionYears.execute(tenant.id);
    if (asJson(p)) return out.json({ tenant: slug, retentionYears: years });
    out.line(`Tenant ${slug}: evidence is kept ${years} years after the enrolment's completion, then purged.`);
  },

  async 'keys rewrap'(p, { config, container, out }) {
    if (config.previousMasterKeys.length === 0)
      out.line('No FUNDI_PREVIOUS_MASTER_KEYS configured: checking that everything is under the current master key.');
    const files = await useCasesOf(container(), evidenceCapability).evidence.rewrapFiles.execute();
    const secrets = await useCasesOf(container(), webhookCapability).resealSecrets.execute();
    const notificationSettings = await useCasesOf(
      container(),
      notificationsCapability,
    ).notificationSettings.resealSecrets.execute();
    if (asJson(p)) return out.json({ files, webhookSecrets: secrets, notificationSettings });
    out.line(
      `Re-wrapped ${files.rewrapped} of ${files.files} stored files and sealed ${secrets} webhook subscriptions' secrets and ${notificationSettings} tenants' mail and WhatsApp secrets again under the current master key.`,
    );
    out.line('The previous master keys are no longer needed by stored data; remove FUNDI_PREVIOUS_MASTER_KEYS.');
  },

  async 'regulator settings'(p, { container, out }) {
    const service = useCasesOf(container(), exportsCapability).exports;
    const slug = required(p.flags, 'tenant');
    const tenant = await reposOf(container()).tenants.findBySlug(slug);
    if (!tenant) throw new UsageError(`No tenant ${slug}`);
    const actor = operator(tenant.id);
    const current: Record<string, unknown> = { ...(await service.getSettings.execute(actor)) };
    const kebab = (f: string) => f.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
    const given = REGULATOR_SETTING_FIELDS.filter((f) => p.flags[kebab(f)] !== undefined);
    for (const f of given) current[f] = p.flags[kebab(f)] === 'none' ? null : p.flags[kebab(f)];
    const settings = given.length ? await service.putSettings.execute(actor, current) : current;
    if (asJson(p)) return out.json({ tenant: slug, settings });
    for (const f of REGULATOR_SETTING_FIELDS) out.line(`${kebab(f).padEnd(28)} ${settings[f] ?? '(unset)'}`);
  },

  async 'keys create'(p, { container, out }) {
    const scopes =
      typeof p.flags.scopes === 'string'
        ? p.flags.scopes
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean)
        : undefined;
    const k = await useCasesOf(container(), tenants).createApiKey.execute(required(p.flags, 'tenant'), {
      name: required(p.flags, 'name'),
      role: required(p.flags, 'role'),
      scopes,
      expiresAt: p.flags.expires,
    });
    if (asJson(p))
      return out.json({ id: k.id, key: k.key, name: k.name, role: k.role, scopes: k.scopes, expiresAt: k.expiresAt });
    out.line(
      `Created key ${k.id} "${k.name}" (${k.role}; ${k.scopes.length} scopes${k.expiresAt ? `; last day ${k.expiresAt}` : ''}). Shown only now:\n  ${k.key}`,
    );
  },

  async 'keys list'(p, { container, out }) {
    const keys = await useCasesOf(container(), tenants).listApiKeys.execute(required(p.flags, 'tenant'));
    const view = keys.map(({ id, name, role, scopes, prefix, expiresAt, revokedAt, createdAt, lastUsedAt }) => ({
      id,
      name,
      role,
      scopes,
      prefix,
      expiresAt,
      revokedAt,
      createdAt,
      lastUsedAt,
    }));
    if (asJson(p)) return out.json(view);
    for (const k of view)
      out.line(
        `${k.id}  ${k.prefix}…  ${k.role.padEnd(11)} ${k.revokedAt ? 'revoked' : k.expiresAt ? `until ${k.expiresAt}` : 'active'}  last used ${k.lastUsedAt ?? 'never'}  ${k.name}`,
      );
  },

  async 'jobs list'(p, { container, out }) {
    const limit = p.flags.limit;
    const jobs = await useCasesOf(container(), platform).listJobs.execute({
      state: p.flags.state as string | undefined,
      kind: p.flags.kind as string | undefined,
      tenant: p.flags.tenant as string | undefined,
      ...(limit === undefined ? {} : { limit: /^\d+$/.test(String(limit)) ? Number(limit) : Number.NaN }),
    });
    if (asJson(p)) return out.json(jobs);
    if (jobs.length === 0) return out.line('No jobs match.');
    for (const j of jobs) out.line(jobLine(j));
  },

  async 'jobs show'(p, { container, out }) {
    const job = await useCasesOf(container(), platform).showJob.execute(jobId(p, 'show'));
    if (asJson(p)) return out.json(job);
    printJob(out, job);
  },

  async 'jobs retry'(p, { container, out }) {
    const job = await useCasesOf(container(), platform).retryJob.execute(jobId(p, 'retry'));
    if (asJson(p)) return out.json(job);
    out.line(`Job ${job.id} (${job.kind}) is due now with its attempts reset; a worker takes it at its next look.`);
  },

  async 'jobs cancel'(p, { container, out }) {
    const job = await useCasesOf(container(), platform).cancelJob.execute(jobId(p, 'cancel'));
    if (asJson(p)) return out.json(job);
    out.line(`Job ${job.id} (${job.kind}) is cancelled: it will not run again.`);
  },

  async 'keys revoke'(p, { container, out }) {
    const keyId = p.command[2];
    if (!keyId) throw new UsageError('keys revoke needs the key id: keys revoke --tenant <slug> <keyId>');
    await useCasesOf(container(), tenants).revokeApiKey.execute(required(p.flags, 'tenant'), keyId);
    if (asJson(p)) return out.json({ id: keyId, revoked: true });
    out.line(`Revoked ${keyId}.`);
  },
};

const jobId = (p: Parsed, verb: string) => {
  const id = p.command[2];
  if (!id) throw new UsageError(`jobs ${verb} needs the job id: jobs ${verb} <jobId>`);
  return id;
};

const jobLine = (j: JobView) =>
  `${j.id}  ${j.state.padEnd(9)} ${j.kind.padEnd(34)} ${`${j.attempts}/${j.maxAttempts}`.padEnd(6)} ${j.doneAt ?? j.dueAt}${j.lastError ? `  ${j.lastError.split('\n')[0]!.slice(0, 80)}` : ''}`;

function printJob(out: Output, j: JobView): void {
  const rows: [string, unknown][] = [
    ['id', j.id],
    ['kind', `${j.kind} (${j.lane} lane, ${j.priority})`],
    ['state', j.state],
    ['tenant', j.tenantId ?? '(none)'],
    ['attempts', `${j.attempts} of ${j.maxAttempts}`],
    ['created', j.createdAt],
    ['due', j.dueAt],
    ['claimed', j.claimedAt ? `${j.claimedAt} by ${j.leaseOwner ?? '(released)'}` : '(never)'],
    ['lease until', j.leaseUntil ?? '(none)'],
    ['finished', j.doneAt ?? '(not yet)'],
    ['cancelled', j.cancelledAt ?? '(no)'],
    [
      'progress',
      j.progress ? `${j.progress.processed}${j.progress.total === null ? '' : ` of ${j.progress.total}`}` : '(none)',
    ],
    ['last error', j.lastError ?? '(none)'],
  ];
  for (const [k, v] of rows) out.line(`${k.padEnd(12)} ${v}`);
  if (j.payload !== undefined) out.line(`payload      ${JSON.stringify(j.payload)}`);
}

/** The whole of stdin, without the final line break (`echo secret | fundi users create ... --password-stdin`). */
async function readPassword(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
  if (!text) throw new UsageError('--password-stdin: no password on stdin');
  return text;
}
