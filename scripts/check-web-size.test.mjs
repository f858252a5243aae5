import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { chunksForPage, PUBLIC_PAGES } from './check-web-size.mjs';

const root = new URL('../', import.meta.url);
const routes = readFileSync(new URL('web/app/routes.tsx', root), 'utf8');

/** The paths of web/app/routes.tsx whose element is not wrapped in RequireSession (the index is '/'). */
function publicRoutePaths() {
  const paths = [];
  for (const part of routes.split('<Route').slice(1)) {
    const element = part.split(/<\/Route>|\/>\s*\n\s*<Route/)[0] ?? '';
    if (/RequireSession/.test(part.split('<Route')[0] ?? '') || /RequireSession/.test(element)) continue;
    const path = /\bpath="([^"]+)"/.exec(part)?.[1];
    if (/^\s*index\b/.test(part)) paths.push('/');
    else if (path === '*') paths.push('/*');
    else if (path) paths.push(`/${path}`);
  }
  return paths;
}

describe('the public pages’ JavaScript budget', () => {
  it('adds up the entry’s and the page’s static imports, transitively, and no dynamic import', () => {
    const chunks = [
      {
        file: 'index.js',
        isEntry: true,
        source: 'web/index.html',
        imports: ['react.js'],
        dynamicImports: ['A.js', 'B.js'],
      },
      { file: 'react.js', isEntry: false, source: null, imports: [], dynamicImports: [] },
      {
        file: 'A.js',
        isEntry: false,
        source: 'web/A.tsx',
        imports: ['form.js'],
        dynamicImports: ['editor.js'],
      },
      { file: 'form.js', isEntry: false, source: null, imports: ['react.js', 'zod.js'], dynamicImports: [] },
      { file: 'zod.js', isEntry: false, source: null, imports: [], dynamicImports: [] },
      { file: 'B.js', isEntry: false, source: 'web/B.tsx', imports: [], dynamicImports: [] },
      { file: 'editor.js', isEntry: false, source: null, imports: [], dynamicImports: [] },
    ];
    expect(chunksForPage(chunks, 'web/A.tsx')).toEqual(['A.js', 'form.js', 'index.js', 'react.js', 'zod.js']);
    expect(chunksForPage(chunks, 'web/B.tsx')).toEqual(['B.js', 'index.js', 'react.js']);
    expect(chunksForPage(chunks, null)).toEqual(['index.js', 'react.js']);
    expect(() => chunksForPage(chunks, 'web/C.tsx')).toThrow(/no chunk starts at web\/C\.tsx/);
  });

  it('knows every public route of web/app/routes.tsx, and each page module exists', () => {
    const paths = publicRoutePaths();
    // The parse must find the routes a visitor reaches (a check that found none would pass anything).
    expect(paths).toEqual(expect.arrayContaining(['/', '/about', '/contact', '/login', '/*']));
    expect(paths).not.toContain('/staff');
    expect(paths).not.toContain('/dashboard');
    expect(Object.keys(PUBLIC_PAGES).sort()).toEqual([...new Set(paths)].sort());
    for (const source of Object.values(PUBLIC_PAGES)) {
      if (source) expect(existsSync(new URL(source, root)), source).toBe(true);
    }
  });
});
