import fs from 'node:fs';
import path from 'node:path';
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildTestApp, type TestApp } from '../tests/support/build-test-app';

// docs/product.md §7 lists every /api route the app registers, and nothing else: a route added
// without its row, or a row whose route is gone, fails here.

const doc = fs.readFileSync(path.join(path.dirname(new URL(import.meta.url).pathname), '..', 'docs', 'product.md'), 'utf8');

/** The first cell of every row of the first table under the heading `## 7. API`. */
function apiTableFirstCells(markdown: string): string[] {
  const section = markdown.split(/^## 7\. API$/m)[1]?.split(/^## /m)[0] ?? '';
  return section
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .slice(2)
    .map((line) => line.split('|')[1]!.trim());
}

/**
 * The routes a row's first cell names, as `METHOD /path` with every parameter written `:param`.
 * Short forms after the first route of a cell: `POST` (same path), `PUT /{id}` or `/{id}` (below the
 * path), `.csv` (the path with that suffix), `logout` (a sibling path); `?query` notes are skipped.
 */
function routesOfCell(cell: string): string[] {
  const tokens = [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!.trim());
  const routes: string[] = [];
  let base: { method: string; path: string } | null = null;
  for (const token of tokens) {
    if (token.startsWith('?')) continue;
    const full = /^([A-Z]+) (\/\S*)$/.exec(token);
    const methodOnly = /^([A-Z]+)(?: (\/\S*))?$/.exec(token);
    let route: { method: string; path: string } | null = null;
    if (full && full[2]!.startsWith('/api/')) route = base = { method: full[1]!, path: full[2]! };
    else if (!base) continue;
    else if (methodOnly) route = { method: methodOnly[1]!, path: base.path + (methodOnly[2] ?? '') };
    else if (token.startsWith('/')) route = { method: base.method, path: base.path + token };
    else if (token.startsWith('.')) route = { method: base.method, path: base.path + token };
    else if (/^[a-z-]+$/.test(token)) route = { method: base.method, path: base.path.replace(/[^/]+$/, token) };
    if (route) routes.push(`${route.method} ${normalize(route.path)}`);
  }
  return routes;
}

const normalize = (url: string) => url.replace(/\{[^}]+\}|:[A-Za-z]+/g, ':param');

let t: TestApp;
const registered: RouteOptions[] = [];

beforeAll(async () => {
  t = await buildTestApp({ seed: false, deps: { onRoute: (route) => void registered.push(route) } });
}, 60_000);
afterAll(async () => {
  await t?.close();
});

describe('docs/product.md §7 lists the API the app serves', () => {
  test('every registered /api route has a row, and every row names a registered route', () => {
    const served = new Set(
      registered
        .filter((r) => r.url.startsWith('/api/'))
        .flatMap((r) => (Array.isArray(r.method) ? r.method : [r.method]).filter((m) => m !== 'HEAD').map((m) => `${m} ${normalize(r.url)}`)),
    );
    const documented = new Set(apiTableFirstCells(doc).flatMap(routesOfCell));
    expect(served.size).toBeGreaterThan(40);
    expect([...served].filter((r) => !documented.has(r)).sort(), 'routes without a row in docs/product.md §7').toEqual([]);
    expect([...documented].filter((r) => !served.has(r)).sort(), 'rows of docs/product.md §7 naming no route').toEqual([]);
  });
});

describe('reading the table', () => {
  test('short forms expand below the first route of a cell', () => {
    expect(routesOfCell('`GET /api/admin/products`, `POST`, `PUT /{id}`, `DELETE /{id}`')).toEqual([
      'GET /api/admin/products',
      'POST /api/admin/products',
      'PUT /api/admin/products/:param',
      'DELETE /api/admin/products/:param',
    ]);
    expect(routesOfCell('`POST /api/admin/login` / `logout`')).toEqual(['POST /api/admin/login', 'POST /api/admin/logout']);
    expect(routesOfCell('`GET /api/admin/newsletter-signups`, `.csv`')).toEqual([
      'GET /api/admin/newsletter-signups',
      'GET /api/admin/newsletter-signups.csv',
    ]);
    expect(routesOfCell('`GET /api/products` (`?q=`, `?category=`)')).toEqual(['GET /api/products']);
    expect(routesOfCell('`PUT` to the upload URL')).toEqual([]);
    expect(routesOfCell('`GET /healthz`, `/sitemap.xml`')).toEqual([]);
  });

  test('the §7 table is found', () => {
    expect(apiTableFirstCells('## 7. API\n\ntext\n\n| a | b |\n|---|---|\n| `GET /api/x` | y |\n\n## 8. Next\n| `GET /api/z` | |')).toEqual([
      '`GET /api/x`',
    ]);
  });
});
