import type { TestSpecification } from 'vitest/node';
import { describe, expect, it } from 'vitest';
import SlowestFirst from './sequencer';

// The order the suite's files start in: longest measured first within a project, unknown ones first
// (tests/durations.json has a11y at about 90 s, shell at about 4 s).
const root = '/repo';
const spec = (project: string, file: string) =>
  ({
    project: { name: project, config: { root, isolate: false, sequence: { groupOrder: 0 } } },
    moduleId: `${root}/${file}`,
  }) as unknown as TestSpecification;
const sequencer = () =>
  new SlowestFirst({
    config: { root },
    cache: { getFileTestResults: () => undefined, getFileStats: () => undefined },
  } as never);
const names = (specs: TestSpecification[]) =>
  specs.map((s) => `${s.project.name}:${s.moduleId.slice(root.length + 1)}`);

describe('SlowestFirst', () => {
  it('starts the longest files first, a file it has no duration for before them, projects apart', async () => {
    const files = [
      spec('e2e', 'tests/e2e/shell.e2e.test.ts'),
      spec('e2e', 'tests/e2e/not-measured-yet.e2e.test.ts'),
      spec('e2e', 'tests/e2e/a11y.e2e.test.ts'),
      spec('api-pglite', 'tests/api/access-matrix.api.test.ts'),
    ];
    expect(names(await sequencer().sort(files))).toEqual([
      'api-pglite:tests/api/access-matrix.api.test.ts',
      'e2e:tests/e2e/not-measured-yet.e2e.test.ts',
      'e2e:tests/e2e/a11y.e2e.test.ts',
      'e2e:tests/e2e/shell.e2e.test.ts',
    ]);
  });
});
