import { defineConfig } from 'vitest/config';

// End-to-end journeys in a real headless Chromium against the built product.
export default defineConfig({
  test: {
    name: 'e2e',
    include: ['tests/e2e/**/*.e2e.test.ts'],
    globalSetup: ['tests/support/global-e2e.ts'],
    testTimeout: 60_000,
    hookTimeout: 90_000,
    maxWorkers: 2,
    fileParallelism: true,
  },
});
