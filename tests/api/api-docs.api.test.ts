import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app';

// docs/product/api.md lists every call the app registers: a route added without its row fails here,
// with the row's beginning to add.

const apiMd = readFileSync(new URL('../../docs/product/api.md', import.meta.url), 'utf8');
/** Every `METHOD /path` written in api.md's tables (a cell may name several; query strings dropped). */
const documented = new Set(
  [...apiMd.matchAll(/`(GET|POST|PUT|PATCH|DELETE) (\/[^`?\s]*)/g)].map((m) => same(`${m[1]} ${m[2]}`)),
);
/** A route with its parameters unnamed: `{code}` in the docs is `{reportCode}` in the code. */
function same(route: string): string {
  return route.replace(/\{[^}]*\}/g, '{}');
}

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

/** The routes the app serves, from its OpenAPI description ({id} parameters, as api.md writes them). */
function registeredRoutes(): string[] {
  const spec = t.app.swagger() as { paths: Record<string, Record<string, unknown>> };
  return Object.entries(spec.paths).flatMap(([path, methods]) =>
    Object.keys(methods)
      .filter((m) => m !== 'head' && m !== 'options')
      .map((m) => `${m.toUpperCase()} ${path}`),
  );
}

describe('docs/product/api.md', () => {
  it('lists every route the app registers', () => {
    const routes = registeredRoutes();
    expect(routes.length).toBeGreaterThan(50);
    const missing = routes.filter((r) => !documented.has(same(r))).sort();
    expect(
      missing,
      `Add a row for each of these routes to docs/product/api.md (and roles-and-access.md), e.g.\n${missing
        .map((r) => `| \`${r}\` | who may call it | what it takes | what it answers |`)
        .join('\n')}\n`,
    ).toEqual([]);
  });

  it('names no route the app does not register', () => {
    // Routes hidden from the OpenAPI description (schema.hide: the /Uploads files, photo copies) and the
    // description itself are not in it: the rows naming them are left out of this direction.
    const routes = new Set(registeredRoutes().map(same));
    const stale = [...documented]
      .filter((r) => !routes.has(r) && !/^GET \/(Uploads\/|api\/docs)/.test(r))
      .sort();
    expect(
      stale,
      `These rows of docs/product/api.md name a route the app does not have: ${stale.join(', ')}`,
    ).toEqual([]);
  });
});
