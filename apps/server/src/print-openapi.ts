import { closeContainer } from '@fundi/adapters';
import { containerFor, openApiDocument } from './compose.js';

/**
 * Prints the OpenAPI document the server serves, without starting it or opening a database (the typed client in
 * packages/client is generated from it at build time).
 */
const c = containerFor(
  { database: { kind: 'sqlite', filename: ':memory:' }, masterKey: Buffer.alloc(32), logLevel: 'silent' },
  { storage: { kind: 'memory' } },
);
process.stdout.write(`${JSON.stringify(openApiDocument(c), null, 2)}\n`);
await closeContainer(c);
