#!/usr/bin/env node
// `npm run lint:openapi`: builds the packages if needed, generates the OpenAPI document from the same route list
// the server mounts, writes it to a temp file and lints it with Redocly (config: redocly.yaml). Exit code = lint's.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

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

const load = (p) => import(pathToFileURL(join(root, p)).href);
const { apiRoutes, containerFor } = await load('apps/server/dist/index.js');
const { buildOpenApi, formA, formB } = await load('packages/http/dist/index.js');
const { closeContainer } = await load('packages/adapters/dist/index.js');

// The in-memory store is enough: only the route list is needed, no request is served.
const container = containerFor(
  { database: { kind: 'sqlite', filename: ':memory:' }, masterKey: Buffer.alloc(32), logLevel: 'silent' },
  { storage: { kind: 'memory' } },
);
const identity = { encode: (id) => id, decode: (c) => c };
const doc = buildOpenApi(apiRoutes(container), { a: formA(identity), b: formB() });
await closeContainer(container);

const dir = mkdtempSync(join(tmpdir(), 'fundi-openapi-'));
const file = join(dir, 'openapi.json');
writeFileSync(file, JSON.stringify(doc, null, 2));
const lint = spawnSync(
  join(root, 'node_modules/.bin/redocly'),
  ['lint', file, '--config', join(root, 'redocly.yaml'), ...process.argv.slice(2)],
  { cwd: root, stdio: 'inherit' },
);
rmSync(dir, { recursive: true, force: true });
process.exit(lint.status ?? 1);
