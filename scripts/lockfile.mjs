// The offline dependency check of `npm run lint` (docs/operations.md): `npm audit` needs the
// registry's advisory service, which is not always reachable; this check needs nothing but the two
// files, so it always runs. It fails when
// - package-lock.json does not match package.json (a dependency added, removed or re-ranged without
//   `npm install`), or a locked top-level version is outside its declared range;
// - a locked package comes from anywhere but the public npm registry over HTTPS (a git URL, a
//   tarball URL, a local file, another registry), or has no sha512 integrity hash;
// - a locked package runs an install script and is not named in package.json's "allowScripts".
import semver from 'semver';

const REGISTRY = 'https://registry.npmjs.org/';

/** The problems of a lockfile against its package.json: an empty list when it is sound. */
export function lockfileProblems(pkg, lock) {
  const problems = [];
  if (!lock || typeof lock !== 'object' || !lock.packages) return ['package-lock.json has no "packages" map'];
  if ((lock.lockfileVersion ?? 0) < 2)
    problems.push(`lockfileVersion ${lock.lockfileVersion} is older than 2`);
  const root = lock.packages[''] ?? {};
  for (const field of ['dependencies', 'devDependencies', 'optionalDependencies']) {
    const declared = pkg[field] ?? {};
    const locked = root[field] ?? {};
    for (const [name, range] of Object.entries(declared)) {
      if (locked[name] !== range)
        problems.push(
          `${field}.${name}: package.json says ${range}, the lockfile ${locked[name] ?? 'nothing'}`,
        );
      const entry = lock.packages[`node_modules/${name}`];
      if (!entry) problems.push(`${name} is declared but not locked`);
      else if (semver.validRange(range) && !semver.satisfies(entry.version, range))
        problems.push(`${name}: locked ${entry.version} is outside ${range}`);
    }
    for (const name of Object.keys(locked))
      if (!(name in declared)) problems.push(`${field}.${name} is locked but not in package.json`);
  }
  const allowScripts = pkg.allowScripts ?? {};
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (path === '' || entry.link) continue;
    const name = entry.name ?? path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
    if (!semver.valid(entry.version))
      problems.push(`${path}: version ${entry.version} is not a registry version`);
    if (entry.resolved !== undefined && !String(entry.resolved).startsWith(REGISTRY))
      problems.push(`${path}: resolved from ${entry.resolved}, not ${REGISTRY}`);
    if (!String(entry.integrity ?? '').startsWith('sha512-'))
      problems.push(`${path}: no sha512 integrity hash`);
    if (entry.hasInstallScript && allowScripts[name] !== true)
      problems.push(`${path}: runs an install script; allow it in package.json "allowScripts" if it must`);
  }
  return problems;
}
