// Builds an older commit for `BENCH_BASELINE=<commit> npm run bench:load` (bench/load.ts): a detached
// `git worktree` in a temp dir whose node_modules is a symlink to this checkout's, built there with
// the commit's own build scripts. A commit whose lockfile pins a package at another version than the
// one installed here needs a different dependency set: that fails with the list, before building.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { dependencyDrift, type LockEntry } from './load-compare';

export type BaselineBuild = { commit: string; dist: string; remove(): void };

const git = (args: string[], cwd = process.cwd()) => {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 1 << 30 });
  return { ok: r.status === 0, out: r.stdout?.trim() ?? '', err: r.stderr?.trim() ?? '' };
};

export class BaselineError extends Error {}

/** The full hash of `ref`, or a BaselineError. */
export function resolveCommit(ref: string): string {
  const resolved = git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
  if (!resolved.ok) throw new BaselineError(`BENCH_BASELINE=${ref}: no such commit in this repository`);
  return resolved.out;
}

export function buildBaseline(ref: string): BaselineBuild {
  const commit = resolveCommit(ref);
  const short = commit.slice(0, 9);

  // The dependency set, before anything is checked out.
  const lock = git(['show', `${commit}:package-lock.json`]);
  if (!lock.ok)
    throw new BaselineError(`baseline ${short} has no package-lock.json: its dependency set is unknown`);
  const modules = resolve('node_modules');
  const installed = (path: string) => {
    try {
      return (
        JSON.parse(readFileSync(join(modules, '..', path, 'package.json'), 'utf8')) as { version?: string }
      ).version;
    } catch {
      return undefined;
    }
  };
  const packages = (JSON.parse(lock.out) as { packages?: Record<string, LockEntry> }).packages ?? {};
  const drift = dependencyDrift(packages, installed);
  const list = (xs: string[]) =>
    xs.slice(0, 15).join(', ') + (xs.length > 15 ? `, … (${xs.length} in all)` : '');
  if (drift.mismatched.length > 0 && process.env.BENCH_BASELINE_DEPS !== 'any')
    throw new BaselineError(
      `baseline ${short} needs a different dependency set than this checkout's node_modules ` +
        `(${drift.mismatched.length} packages at other versions: ${list(drift.mismatched)}).\n` +
        `Build it in its own clone (git clone, git checkout ${short}, npm ci, npm run build) and pass ` +
        `BENCH_BASELINE_DIST=<that clone>/dist, or run with BENCH_BASELINE_DEPS=any to build it with ` +
        `this checkout's packages anyway (then the baseline is not quite the commit's product).`,
    );
  if (drift.missing.length > 0)
    console.log(
      `note: baseline ${short}'s lockfile lists ${drift.missing.length} packages not installed here ` +
        `(${list(drift.missing)}); the build fails below if it uses them.`,
    );

  const dir = mkdtempSync(join(tmpdir(), `vl-load-baseline-${short}-`));
  const checkout = join(dir, 'checkout');
  const remove = () => {
    git(['worktree', 'remove', '--force', checkout]);
    rmSync(dir, { recursive: true, force: true });
    git(['worktree', 'prune']);
  };
  const added = git(['worktree', 'add', '--detach', checkout, commit]);
  if (!added.ok) {
    remove();
    throw new BaselineError(`git worktree add ${short} failed: ${added.err}`);
  }
  try {
    symlinkSync(modules, join(checkout, 'node_modules'), 'dir');
    console.log(`building baseline ${short} in ${checkout} (node_modules: ${modules}) …`);
    const env: NodeJS.ProcessEnv = { ...process.env };
    delete env.DIST_DIR;
    const b = spawnSync('npm', ['run', 'build'], {
      cwd: checkout,
      env,
      encoding: 'utf8',
      maxBuffer: 1 << 28,
    });
    if (b.status !== 0)
      throw new BaselineError(
        `the build of baseline ${short} failed with this checkout's node_modules` +
          (drift.missing.length
            ? ` (its lockfile lists packages not installed here: ${list(drift.missing)})`
            : '') +
          `:\n${`${b.stdout}\n${b.stderr}`.trim().split('\n').slice(-25).join('\n')}`,
      );
    const dist = join(checkout, 'dist');
    if (!existsSync(join(dist, 'server/main.js')))
      throw new BaselineError(`baseline ${short} built, but ${join(dist, 'server/main.js')} is not there`);
    return { commit, dist, remove };
  } catch (err) {
    remove();
    throw err;
  }
}
