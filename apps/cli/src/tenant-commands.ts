import { useCasesOf } from '@fundi/adapters';
import { reposOf, tenants } from '@fundi/server';
import { required } from './args.js';
import { asJson, type Command } from './command.js';

/** Tenants: create one (with its first admin key), list them, change a plan or its limits. */
export const TENANT_COMMANDS: Record<string, Command> = {
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
};
