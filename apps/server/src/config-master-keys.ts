import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { ConfigError } from './config-values.js';

/** FUNDI_PREVIOUS_MASTER_KEYS: comma-separated base64 keys of 32 bytes (docs/architecture.md, "Files"). */
export function previousMasterKeys(env: NodeJS.ProcessEnv): Buffer[] {
  const raw = env.FUNDI_PREVIOUS_MASTER_KEYS?.trim();
  if (!raw) return [];
  return raw.split(',').map((part) => {
    const key = Buffer.from(part.trim(), 'base64');
    if (key.length !== 32)
      throw new ConfigError('FUNDI_PREVIOUS_MASTER_KEYS', 'must be comma-separated keys of 32 bytes, base64-encoded');
    return key;
  });
}

/** The master key from FUNDI_MASTER_KEY, or else from `<dataDir>/master.key`, created on first start. */
export function masterKey(env: NodeJS.ProcessEnv, dataDir: string): Buffer {
  const raw = env.FUNDI_MASTER_KEY;
  if (raw) {
    const key = Buffer.from(raw, 'base64');
    if (key.length !== 32) throw new ConfigError('FUNDI_MASTER_KEY', 'must be 32 bytes, base64-encoded');
    return key;
  }
  const file = join(dataDir, 'master.key');
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, randomBytes(32).toString('base64'), { flag: 'wx', mode: 0o600 });
  }
  chmodSync(file, 0o600);
  return Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
}
