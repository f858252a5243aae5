import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { findCycles, importProblems, serverLayerProblem } from './check-imports.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const scratch = mkdtempSync(join(tmpdir(), 'vl-imports-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A throwaway repository made of `files` (path → source). */
function tree(name, files) {
  const root = join(scratch, name);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  for (const top of ['common', 'server', 'web']) mkdirSync(join(root, top), { recursive: true });
  return root;
}

describe('the import direction check', () => {
  it('passes the project’s own files', () => {
    expect(importProblems(repo)).toEqual([]);
  });

  it('refuses a lower layer importing a module, app.ts or app-deps.ts; a test file may', () => {
    expect(serverLayerProblem('server/mail/mailer.ts', 'server/modules/lab/lab.queries')).toMatch(
      /server\/mail never imports a module \(server\/modules\/lab\)/,
    );
    for (const layer of ['db', 'storage', 'jobs', 'mail', 'audit', 'plugins', 'policies', 'pdf']) {
      expect(serverLayerProblem(`server/${layer}/x.ts`, 'server/modules/samples/y'), layer).not.toBeNull();
      expect(serverLayerProblem(`server/${layer}/x.ts`, 'server/app-deps.ts'), layer).not.toBeNull();
    }
    expect(serverLayerProblem('server/db/x.test.ts', 'server/modules/samples/y')).toBeNull();
    expect(serverLayerProblem('server/modules/quotes/q.ts', 'server/db/samples')).toBeNull();
    expect(serverLayerProblem('server/modules/quotes/q.ts', 'server/app.ts')).toMatch(/app-deps/);
    expect(serverLayerProblem('server/app.ts', 'server/modules/quotes/q')).toBeNull();
  });

  it('finds each cycle once, from its smallest name, and none in a one-way graph', () => {
    const graph = new Map([
      ['quotes', new Set(['samples', 'workflow'])],
      ['samples', new Set(['quotes', 'photos'])],
      ['workflow', new Set(['samples'])],
      ['photos', new Set()],
    ]);
    expect(findCycles(graph)).toEqual([
      ['quotes', 'workflow', 'samples', 'quotes'],
      ['quotes', 'samples', 'quotes'],
    ]);
    expect(
      findCycles(
        new Map([
          ['a', new Set(['b'])],
          ['b', new Set(['c'])],
        ]),
      ),
    ).toEqual([]);
  });

  it('names the files of a cycle between two modules and of a lower layer importing a module', () => {
    const root = tree('cycle', {
      'server/modules/a/a.ts': "import { b } from '../b/b';\nexport const a = b;\n",
      'server/modules/b/b.ts': "import { a } from '../a/a';\nexport const b = 1;\n",
      'server/modules/b/b.test.ts': "import { a } from '../a/a';\n",
      'server/db/d.ts': "import { a } from '../modules/a/a';\n",
    });
    const problems = importProblems(root);
    expect(problems).toHaveLength(2);
    expect(problems).toContain(
      "server/db/d.ts imports '../modules/a/a': server/db never imports a module (server/modules/a): move the piece it needs down to a lower layer",
    );
    expect(problems.find((p) => p.startsWith('server modules import each other'))).toContain(
      'a → b → a (server/modules/a/a.ts → b; server/modules/b/b.ts → a)',
    );
  });
});
