import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Workspace packages export their TypeScript sources under the "source" condition.
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
