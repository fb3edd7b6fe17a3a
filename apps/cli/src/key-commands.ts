import { useCasesOf } from '@fundi/adapters';
import { capabilitiesOf, hooksOf, tenants } from '@fundi/server';
import { required, UsageError } from './args.js';
import { asJson, type Command } from './command.js';

/** A tenant's API keys: create (shown once), list, revoke; and every stored secret sealed again after a rotation. */
export const KEY_COMMANDS: Record<string, Command> = {
  /** Every capability that seals what it stores under the master key does it again (its `rewrap` hook). */
  async 'keys rewrap'(p, { config, container, out }) {
    if (config.previousMasterKeys.length === 0)
      out.line('No FUNDI_PREVIOUS_MASTER_KEYS configured: checking that everything is under the current master key.');
    const done = await hooksOf(container(), capabilitiesOf(container())).rewrap();
    if (asJson(p)) return out.json(Object.fromEntries(done.map((d) => [d.key, d.count])));
    out.line(`Under the current master key: ${done.map((d) => d.said).join(', ')}.`);
    out.line('The previous master keys are no longer needed by stored data; remove FUNDI_PREVIOUS_MASTER_KEYS.');
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

  async 'keys revoke'(p, { container, out }) {
    const keyId = p.command[2];
    if (!keyId) throw new UsageError('keys revoke needs the key id: keys revoke --tenant <slug> <keyId>');
    await useCasesOf(container(), tenants).revokeApiKey.execute(required(p.flags, 'tenant'), keyId);
    if (asJson(p)) return out.json({ id: keyId, revoked: true });
    out.line(`Revoked ${keyId}.`);
  },
};
