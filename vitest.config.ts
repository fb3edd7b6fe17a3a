import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Workspace packages export their TypeScript sources under the "source" condition.
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Most of a test's time is spent waiting (servers, Postgres, jobs, browsers), not computing: three test files run
    // at once even on two cores (Vitest's default there is one). A worker process keeps its loaded modules from one
    // test file to the next instead of importing the server's module graph again for each (docs/architecture.md,
    // "CI"). Test files share no state through module variables; each starts its own servers, ports and stores.
    maxWorkers: 3,
    // `expect.poll` waits for an outcome (a page after a form post, a delivery) as long as a loaded machine needs.
    expect: { poll: { timeout: 15_000 } },
    isolate: false,
  },
});
