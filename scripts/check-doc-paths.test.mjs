import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { brokenDocPaths, namedDocPaths } from './check-doc-paths.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const scratch = mkdtempSync(join(tmpdir(), 'vl-docpaths-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function tree(files) {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(scratch, path)), { recursive: true });
    writeFileSync(join(scratch, path), text);
  }
  return scratch;
}

describe('the docs path check', () => {
  it('passes the project’s own files', () => {
    expect(brokenDocPaths(repo)).toEqual([]);
  });

  it('finds a docs/ path named in code and a relative Markdown link, anchors dropped', () => {
    expect(namedDocPaths('server/x.ts', '// see docs/product/photos.md#copies and (docs/a.md)')).toEqual([
      { path: 'docs/product/photos.md', line: 1 },
      { path: 'docs/a.md', line: 1 },
    ]);
    expect(
      namedDocPaths('docs/product/a.md', 'x\n[b](b.md#top) [c](../decisions/c.md) [w](https://x.test/d.md)'),
    ).toEqual([
      { path: 'docs/product/b.md', line: 2 },
      { path: 'docs/decisions/c.md', line: 2 },
    ]);
  });

  it('reports each reference to a file that does not exist, with its line', () => {
    const root = tree({
      'docs/product/real.md': '# Real\n[gone](gone.md)\n',
      'server/a.ts': '// docs/product/real.md\n// docs/product/renamed.md\n',
    });
    expect(brokenDocPaths(root)).toEqual([
      { file: 'server/a.ts', line: 2, path: 'docs/product/renamed.md' },
      { file: 'docs/product/real.md', line: 2, path: 'docs/product/gone.md' },
    ]);
  });
});
