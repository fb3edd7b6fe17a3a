#!/usr/bin/env node
// `npm run fundi -- <command>`: builds if needed (its output goes to stderr, and only when it fails), then runs the CLI.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const build = spawnSync('npx', ['turbo', 'run', 'build', '--output-logs=errors-only', '--log-prefix=none'], {
  cwd: root,
  stdio: ['ignore', 'pipe', 'pipe'],
  env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1', TURBO_NO_UPDATE_NOTIFIER: '1' },
});
if (build.status !== 0) {
  process.stderr.write(build.stdout);
  process.stderr.write(build.stderr);
  process.exit(build.status ?? 1);
}
const run = spawnSync(process.execPath, [join(root, 'apps/cli/dist/main.js'), ...process.argv.slice(2)], {
  cwd: process.cwd(),
  stdio: 'inherit',
});
process.exit(run.status ?? 1);
