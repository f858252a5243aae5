import { defineConfig } from 'vitest/config';
import SlowestFirst from './tests/support/sequencer';
import { PROGRAMS, requireProgram } from './tests/support/programs';

// End-to-end journeys in a real headless Chromium against the built product. Without Chromium they
// are all skipped with a loud message (a failure with CI=true): tests/support/programs.ts.
const { name, path, apt } = PROGRAMS.chromium;
const hasChromium = requireProgram(name, path, apt, 'the end-to-end journeys');

export default defineConfig({
  test: {
    name: 'e2e',
    include: hasChromium ? ['tests/e2e/**/*.e2e.test.ts'] : [],
    passWithNoTests: !hasChromium,
    globalSetup: hasChromium ? ['tests/support/global-e2e.ts'] : [],
    testTimeout: 60_000,
    hookTimeout: 90_000,
    maxWorkers: 2,
    fileParallelism: true,
    // Longest file first, by the durations of a full run (tests/support/sequencer.ts).
    sequence: { sequencer: SlowestFirst },
  },
});
