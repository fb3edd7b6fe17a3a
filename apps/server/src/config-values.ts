/** Reading one environment variable by its kind; a value out of its rules stops the start with a `ConfigError`. */

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`Configuration error: ${variable} ${message}`);
  }
}

/** An integer from `min` to `max`; unset or empty is `fallback`. */
export function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max)
    throw new ConfigError(name, `must be an integer from ${min} to ${max} (got "${raw}")`);
  return Number(raw);
}

/** `true`/`false`/`1`/`0`; unset or empty is `fallback`. */
export function bool(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!['true', 'false', '1', '0'].includes(raw)) throw new ConfigError(name, `must be true or false (got "${raw}")`);
  return raw === 'true' || raw === '1';
}

/** FUNDI_WEBHOOK_ALLOW_HOSTS: comma-separated host names or IP addresses exempt from the SSRF check. */
export function hostList(env: NodeJS.ProcessEnv, name: string): string[] {
  const raw = env[name];
  if (!raw) return [];
  const hosts = raw
    .split(',')
    .map((h) => h.trim())
    .filter(Boolean);
  const bad = hosts.find((h) => !/^(\[[0-9a-fA-F:.]+\]|[0-9a-fA-F:.]+|[A-Za-z0-9.-]+)$/.test(h));
  if (bad !== undefined)
    throw new ConfigError(name, `must list host names or IP addresses separated by commas (got "${bad}")`);
  return hosts;
}
