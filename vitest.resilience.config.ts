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
    maxWorkers: 3,
    // Three files at a time: each starts its own PostgreSQL clusters, product processes, nginx and
    // redis on free ports and its own data dirs, and much of a file's time is spent waiting (restarts,
    // leases, retries), not computing: two at a time left a quarter of the two cores idle (88 s), three
    // took 72 s with 15 % idle (2026-11-26).
    fileParallelism: true,
  },
});
