import { defineConfig } from 'vitest/config';
import SlowestFirst from './tests/support/sequencer';
import { PROGRAMS, requireProgram } from './tests/support/programs';

// Three projects: unit tests, and the API integration suite twice — on the embedded PGlite and on a
// real PostgreSQL cluster the harness starts itself. Without PostgreSQL's server binaries the
// PostgreSQL project is left out with a loud message (a failure with CI=true): tests/support/programs.ts.
const apiTests = ['server/**/*.api.test.ts', 'tests/api/**/*.test.ts'];
const pg = PROGRAMS.postgres;
const hasPostgres = requireProgram(
  pg.name,
  pg.path,
  pg.apt,
  'the api-postgres project (the API suite on PostgreSQL)',
);
const apiPostgres = {
  test: {
    name: 'api-postgres',
    include: apiTests,
    isolate: false,
    globalSetup: ['tests/support/global-postgres.ts'],
    env: { TEST_DB: 'postgres' },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
};

export default defineConfig({
  test: {
    // Vitest's default on two cores is one worker (cores - 1): an API file spends much of its time
    // waiting on PostgreSQL, password hashing (libuv's threads) and timers, so two files at a time
    // keep both cores busy. Every file has its own database, data dir and ports (tests/support).
    maxWorkers: 2,
    // Longest file first, by the durations of a full run (tests/support/sequencer.ts).
    sequence: { sequencer: SlowestFirst },
    // A worker runs file after file in one module registry (isolate: false) instead of importing the
    // server anew for each of ~150 files: the imports were about a quarter of this step's time. Files
    // stay independent because each builds its own app, database, data dir and ports, no test mocks a
    // module, and module-level state in server/ is either set by every app start (the password queue
    // limit) or a process-wide helper that any app may share (the password-strength worker).
    projects: [
      {
        test: {
          name: 'unit',
          isolate: false,
          include: [
            'common/**/*.test.ts',
            'server/**/*.test.ts',
            'web/**/*.test.ts',
            'web/**/*.test.tsx',
            'scripts/**/*.test.mjs',
            'bench/**/*.test.ts',
            'tests/support/**/*.test.ts',
          ],
          exclude: ['**/*.api.test.ts', '**/node_modules/**'],
        },
      },
      {
        test: {
          name: 'api-pglite',
          include: apiTests,
          isolate: false,
          globalSetup: ['tests/support/global-pglite.ts'],
          env: { TEST_DB: 'pglite' },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      ...(hasPostgres ? [apiPostgres] : []),
    ],
  },
});
