import { parseArgs } from 'node:util';

export class UsageError extends Error {}

export interface Parsed {
  command: string[];
  flags: Record<string, string | boolean | undefined>;
}

const OPTIONS = {
  json: { type: 'boolean' },
  slug: { type: 'string' },
  name: { type: 'string' },
  plan: { type: 'string' },
  tenant: { type: 'string' },
  role: { type: 'string' },
  scopes: { type: 'string' },
  expires: { type: 'string' },
  email: { type: 'string' },
  'password-stdin': { type: 'boolean' },
  'per-minute': { type: 'string' },
  'per-day': { type: 'string' },
  'storage-gb': { type: 'string' },
  'sdp-code': { type: 'string' },
  'assessment-partner-code': { type: 'string' },
  'assessment-centre-code': { type: 'string' },
  'readiness-type-id': { type: 'string' },
  'employment-status-default': { type: 'string' },
  'achievement-type-id': { type: 'string' },
  'entry-requirement-status': { type: 'string' },
  'flc-status': { type: 'string' },
  'statement-of-results-status': { type: 'string' },
  state: { type: 'string' },
  kind: { type: 'string' },
  limit: { type: 'string' },
  years: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

export function parse(argv: string[]): Parsed {
  try {
    const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
    return { command: positionals, flags: values };
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

export function required(flags: Parsed['flags'], name: string): string {
  const v = flags[name];
  if (typeof v !== 'string' || v === '') throw new UsageError(`--${name} is required`);
  return v;
}

/** The usage, with the lines of the commands the capabilities contribute (between the CLI's own). */
export const usage = (contributed: readonly string[]) => `Usage: npm run fundi -- <command> [options]

Commands:
  migrate                                   apply database migrations
  tenants create --slug <slug> --name <name> --plan <pilot|starter|professional|standard|enterprise> [--json]
  tenants list [--json]
  tenants update --slug <slug> [--plan <plan>] [--per-minute N|plan] [--per-day N|none|plan] [--storage-gb N|none|plan] [--json]
                                            change a tenant's plan or override its limits (per API key; none = no cap)
  keys create --tenant <slug> --name <name> --role <role> [--scopes a,b] [--expires YYYY-MM-DD] [--json]
  keys list --tenant <slug> [--json]
  keys revoke --tenant <slug> <keyId>
  keys rewrap [--json]                      after a master-key rotation (FUNDI_MASTER_KEY new, FUNDI_PREVIOUS_MASTER_KEYS
                                            old): wrap every file's data key and seal every stored secret under the new key
  users create --tenant <slug> --email <email> --name <name> --role <role> [--password-stdin] [--json]
                                            a dashboard user; the password is read from stdin, or without
                                            --password-stdin a one-time set-password link is printed (72 h)
${contributed.join('\n')}

  jobs list [--state queued|running|failed|done|cancelled] [--kind <kind>] [--tenant <slug>] [--limit N] [--json]
                                            background jobs, newest first (default 50, at most 1000)
  jobs show <jobId> [--json]                one job with its payload, attempts and last error
  jobs retry <jobId> [--json]               a failed job (retrying later, or given up) runs now, attempts reset
  jobs cancel <jobId> [--json]              a queued or failed job is finished as cancelled; a running one is refused

Configuration comes from the environment, as for the server (DATABASE_URL, FUNDI_DATA_DIR, ...).`;
