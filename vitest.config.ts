import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Workspace packages export their TypeScript sources under the "source" condition.
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // A worker process keeps its loaded modules from one test file to the next: each file otherwise spends a second
    // or more importing the server's module graph again (docs/architecture.md, "CI"). Test files share no state
    // through module variables; each starts its own servers and stores.
    isolate: false,
  },
});
