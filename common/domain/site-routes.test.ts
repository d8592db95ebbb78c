import { describe, expect, test } from 'vitest';
import { matchRoute, matchSegments, PAGE_PATHS, pathTo, STATIC_PAGE_PATHS } from './site-routes';

describe('site routes', () => {
  test('patterns match their paths, parameters need a value, a trailing slash is ignored', () => {
    expect(matchRoute(PAGE_PATHS.home, '/')).toBe(true);
    expect(matchRoute(PAGE_PATHS.home, '/search')).toBe(false);
    expect(matchRoute(PAGE_PATHS.product, '/product/abc')).toBe(true);
    expect(matchRoute(PAGE_PATHS.product, '/product/abc/')).toBe(true);
    expect(matchRoute(PAGE_PATHS.product, '/product/')).toBe(false);
    expect(matchRoute(PAGE_PATHS.product, '/product/a/b')).toBe(false);
    expect(matchRoute(PAGE_PATHS.shipping, '/shipping')).toBe(true);
    expect(matchRoute(PAGE_PATHS.shipping, '/shipping/x')).toBe(false);
  });

  test('static pages are one-segment routes of the table', () => {
    const all: readonly string[] = Object.values(PAGE_PATHS);
    for (const p of STATIC_PAGE_PATHS) {
      expect(all).toContain(p);
      expect(p).toMatch(/^\/[a-z-]+$/);
    }
  });

  test('segments match a pattern case-insensitively and give its parameters', () => {
    expect(matchSegments(PAGE_PATHS.home, [])).toEqual({});
    expect(matchSegments(PAGE_PATHS.home, ['search'])).toBeNull();
    expect(matchSegments(PAGE_PATHS.product, ['Product', 'ABC'])).toEqual({ id: 'ABC' });
    expect(matchSegments(PAGE_PATHS.productAlias, ['products', 'x'])).toEqual({ id: 'x' });
    expect(matchSegments(PAGE_PATHS.product, ['product'])).toBeNull();
    expect(matchSegments(PAGE_PATHS.product, ['product', 'a', 'b'])).toBeNull();
    expect(matchSegments(PAGE_PATHS.category, ['category', 'tees & more'])).toEqual({ slug: 'tees & more' });
    expect(matchSegments(PAGE_PATHS.shipping, ['SHIPPING'])).toEqual({});
  });

  test('pathTo fills a pattern, encoding each parameter', () => {
    expect(pathTo(PAGE_PATHS.product, { id: 'abc' })).toBe('/product/abc');
    expect(pathTo(PAGE_PATHS.category, { slug: 'a b/c' })).toBe('/category/a%20b%2Fc');
    expect(pathTo(PAGE_PATHS.drops)).toBe('/drops');
    expect(() => pathTo(PAGE_PATHS.product, {})).toThrow();
  });
});
