// `npm run lint` step: every path under docs/ that the code or the docs name must exist, so a comment
// such as "(docs/product/photos.md)" or a link in README.md cannot silently point at nothing after a
// file is renamed. Scans source, tests, scripts, benches and the Markdown files; prints each broken
// reference as file:line and exits 1.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

const ROOTS = ['server', 'web', 'common', 'tests', 'scripts', 'bench', 'docs', 'README.md'];
const EXTENSIONS = /\.(ts|tsx|mjs|js|md)$/;
const SKIP = new Set(['node_modules', 'dist', 'migrations', 'fixtures']);
/** This check's own test names made-up paths on purpose. */
const SKIP_FILES = new Set(['scripts/check-doc-paths.test.mjs']);

/** Every file to scan, relative to the repository root. */
export function filesToScan(root = '.') {
  const out = [];
  const walk = (path) => {
    const full = join(root, path);
    if (!existsSync(full)) return;
    if (statSync(full).isDirectory()) {
      for (const name of readdirSync(full)) if (!SKIP.has(name)) walk(join(path, name));
    } else if (EXTENSIONS.test(path) && !SKIP_FILES.has(path)) out.push(path);
  };
  for (const r of ROOTS) walk(r);
  return out;
}

/**
 * The docs/ paths a text names: `docs/…/x.md` written out anywhere (comments, strings, prose), and in
 * Markdown files also relative links `](x.md)` resolved from the file's folder. Anchors are dropped.
 */
export function namedDocPaths(file, text) {
  const found = [];
  text.split('\n').forEach((line, i) => {
    for (const m of line.matchAll(/(?<![\w/.-])(docs\/[\w./-]+\.md)/g))
      found.push({ path: m[1], line: i + 1 });
    if (file.endsWith('.md'))
      for (const m of line.matchAll(/\]\((?!https?:|mailto:|#)([^)\s#]+\.md)(#[^)]*)?\)/g))
        found.push({ path: normalize(join(dirname(file), m[1])), line: i + 1 });
  });
  return found;
}

/** The broken references in the repository at `root`: [{file, line, path}]. */
export function brokenDocPaths(root = '.') {
  const broken = [];
  for (const file of filesToScan(root)) {
    const text = readFileSync(join(root, file), 'utf8');
    for (const { path, line } of namedDocPaths(file, text))
      if (!existsSync(join(root, path))) broken.push({ file, line, path });
  }
  return broken;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const broken = brokenDocPaths('.');
  if (broken.length) {
    for (const b of broken)
      console.error(`${b.file}:${b.line}: names ${relative('.', b.path)}, which does not exist`);
    console.error(`doc paths: ${broken.length} broken reference(s)`);
    process.exit(1);
  }
  console.log('doc paths: ok');
}
