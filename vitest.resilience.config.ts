import { defineConfig } from 'vitest/config';
import SlowestFirst from './tests/support/sequencer';

// Fault, restart, multi-instance and storage-sweep tests against the built product (node
// $DIST_DIR/server/main.js), PostgreSQL clusters, nginx and redis-server started by the tests.
export default defineConfig({
  test: {
    name: 'resilience',
    include: ['tests/resilience/**/*.test.ts'],
    globalSetup: ['tests/support/global-resilience.ts'],
    testTimeout: 300_000,
    hookTimeout: 300_000,
    maxWorkers: 4,
    // Four files at a time: each starts its own PostgreSQL clusters, product processes, nginx and
    // redis on free ports and its own data dirs, and much of a file's time is spent waiting (restarts,
    // leases, retries), not computing. Four of the six files take 50-60 s each, so three workers
    // left the last of them running alone: 97 s with 31 % of the cores idle, against 81 s (3 % idle)
    // with four and 88 s with six (docs/benchmarks.md, 2026-11-27).
    fileParallelism: true,
    // Longest file first, by the durations of a full run (tests/support/sequencer.ts).
    sequence: { sequencer: SlowestFirst },
  },
});
