import { describe, expect, test } from 'vitest';
import { matchRoute, PAGE_PATHS, STATIC_PAGE_PATHS } from './site-routes';

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
});
