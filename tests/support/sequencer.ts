import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Longest file first, from the durations a full run measured (tests/durations.json, refreshed by
 * `node scripts/test-durations.mjs` after `npm test`). Vitest orders by the durations of the last run on
 * this machine, but a clean clone has none and falls back to the largest file first, which is not the
 * slowest: a one-minute journey file could start last and run alone while the other worker idled.
 * A file not in the list (new since the last refresh) goes first, as vitest runs unknown files first.
 * Projects keep vitest's own order (name, then isolated ones first).
 */
const durations: Record<string, number> = JSON.parse(
  readFileSync(new URL('../durations.json', import.meta.url), 'utf8'),
);

export default class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const base = await super.sort(files);
    const rank = new Map(base.map((spec, i) => [spec, i]));
    const project = (s: TestSpecification) => s.project.name;
    const projectRank = new Map<string, number>();
    for (const spec of base)
      if (!projectRank.has(project(spec))) projectRank.set(project(spec), projectRank.size);
    const duration = (s: TestSpecification) =>
      durations[`${project(s)}:${relative(s.project.config.root, s.moduleId)}`] ?? Number.POSITIVE_INFINITY;
    return [...base].sort(
      (a, b) =>
        (projectRank.get(project(a)) ?? 0) - (projectRank.get(project(b)) ?? 0) ||
        duration(b) - duration(a) ||
        (rank.get(a) ?? 0) - (rank.get(b) ?? 0),
    );
  }
}
