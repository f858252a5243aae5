import { defineConfig } from 'vitest/config';

// Fault, restart, multi-instance and storage-sweep tests against the built product (node
// $DIST_DIR/server/main.js), PostgreSQL clusters, nginx and redis-server started by the tests.
export default defineConfig({
  test: {
    name: 'resilience',
    include: ['tests/resilience/**/*.test.ts'],
    globalSetup: ['tests/support/global-resilience.ts'],
    testTimeout: 300_000,
    hookTimeout: 300_000,
    maxWorkers: 2,
    // One file at a time: each starts PostgreSQL clusters and product processes of its own.
    fileParallelism: false,
  },
});
