import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { lockfileProblems } from './lockfile.mjs';

const read = (name) => JSON.parse(readFileSync(new URL(`../${name}`, import.meta.url), 'utf8'));
const pkg = read('package.json');
const lock = read('package-lock.json');
const copy = (value) => structuredClone(value);

describe('the offline lockfile check', () => {
  it('passes the project’s own files', () => {
    expect(lockfileProblems(pkg, lock)).toEqual([]);
  });

  it('fails a dependency added to package.json without npm install, or re-ranged past its lock', () => {
    const added = copy(pkg);
    added.dependencies['left-pad'] = '^1.3.0';
    expect(lockfileProblems(added, lock).join('\n')).toMatch(/left-pad/);
    const ranged = copy(pkg);
    ranged.dependencies.zod = '^3.0.0';
    expect(lockfileProblems(ranged, lock).join('\n')).toMatch(/zod/);
  });

  it('fails a package from another registry, a git URL, or without an integrity hash', () => {
    const other = copy(lock);
    other.packages['node_modules/zod'].resolved = 'https://evil.example/zod/-/zod-4.0.0.tgz';
    expect(lockfileProblems(pkg, other).join('\n')).toMatch(/evil\.example/);
    const git = copy(lock);
    git.packages['node_modules/zod'].version = 'git+ssh://git@github.com/x/zod.git#abc';
    expect(lockfileProblems(pkg, git).join('\n')).toMatch(/not a registry version/);
    const bare = copy(lock);
    delete bare.packages['node_modules/zod'].integrity;
    expect(lockfileProblems(pkg, bare).join('\n')).toMatch(/integrity/);
  });

  it('fails an install script that package.json does not allow', () => {
    const scripted = copy(lock);
    scripted.packages['node_modules/zod'].hasInstallScript = true;
    expect(lockfileProblems(pkg, scripted).join('\n')).toMatch(/zod: runs an install script/);
  });
});
