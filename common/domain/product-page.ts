// The home page's product grid: which products one page shows, and how its URL says so.
// Pure, so the server (embedded data, HTML, API) and the browser (links, hydration) agree.

import { newestDropsFirst } from './drop-schedule';
import { isAvailable } from './stock';

/** The fields these rules read; the callers pass whole products and get them back. */
export interface PageableProduct {
  category: string;
  inStock: boolean;
  stock: number;
  isNew: boolean;
  isOnSale: boolean;
  /** Drops lead the grid, newest release first (drop-schedule.ts). */
  releaseAt?: string | null;
}

export interface GridQuery {
  /** Category slug, or null for every product. */
  category: string | null;
  /** 1-based, not yet clamped to the last page. */
  page: number;
}

/** Products per page of the home page's grid (its HTML stays small however big the catalogue grows). */
export const PRODUCT_PAGE_SIZE = 24;
/** Highest page number asked for; beyond the last page the last page is shown. */
export const PRODUCT_PAGE_MAX = 10_000;

const SLUG_RE = /^[a-z0-9-]{1,100}$/;

/**
 * Reads `?category=&page=` from a home URL, forgivingly: a link anyone may have typed shows
 * something sensible (page 1, every product) instead of an error.
 */
export function parseGridQuery(search: string | URLSearchParams, maxPage: number): GridQuery {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search;
  const rawCategory = (params.get('category') ?? '').trim().toLowerCase();
  const category = rawCategory && rawCategory !== 'all' && SLUG_RE.test(rawCategory) ? rawCategory : null;
  const rawPage = params.get('page') ?? '';
  const n = /^\d{1,6}$/.test(rawPage) ? Number(rawPage) : 1;
  return { category, page: Math.min(Math.max(n, 1), maxPage) };
}

/** The query string of a grid page ('' for page 1 of every product), without the leading '?'. */
export function gridSearch(q: GridQuery): string {
  const params = new URLSearchParams();
  if (q.category) params.set('category', q.category);
  if (q.page > 1) params.set('page', String(q.page));
  return params.toString();
}

export interface PageSlice<T> {
  category: string | null;
  page: number;
  pageCount: number;
  pageSize: number;
  total: number;
  products: T[];
}

/** One page of the (optionally filtered) list: drops first, newest release first, the rest in list order; a page past the end shows the last. */
export function slicePage<T extends PageableProduct>(
  products: readonly T[],
  q: GridQuery,
  pageSize: number,
): PageSlice<T> {
  const list = newestDropsFirst(q.category ? products.filter((p) => p.category === q.category) : products);
  const pageCount = Math.max(1, Math.ceil(list.length / pageSize));
  const page = Math.min(Math.max(q.page, 1), pageCount);
  return {
    category: q.category,
    page,
    pageCount,
    pageSize,
    total: list.length,
    products: list.slice((page - 1) * pageSize, page * pageSize),
  };
}

/** Page numbers to link, with null where a run is left out: 1 … 4 5 6 … 42. */
export function pageLinks(page: number, pageCount: number): Array<number | null> {
  const shown = new Set([1, pageCount, page - 1, page, page + 1].filter((n) => n >= 1 && n <= pageCount));
  // A gap of one page is shown as that page rather than an ellipsis.
  if (shown.has(3) && !shown.has(2) && pageCount >= 3) shown.add(2);
  if (shown.has(pageCount - 2) && !shown.has(pageCount - 1)) shown.add(pageCount - 1);
  const sorted = [...shown].sort((a, b) => a - b);
  const out: Array<number | null> = [];
  for (const [i, n] of sorted.entries()) {
    if (i > 0 && n - sorted[i - 1]! > 1) out.push(null);
    out.push(n);
  }
  return out;
}

/** New and on-sale pieces that can still be bought lead; the rest of the catalogue fills in. */
export function pickFeatured<T extends PageableProduct>(products: readonly T[], count = 4): T[] {
  const score = (p: T) => (!isAvailable(p) ? 0 : (p.isNew ? 2 : 0) + (p.isOnSale ? 1 : 0) + 1);
  return products
    .map((p, i) => ({ p, i }))
    .sort((a, b) => score(b.p) - score(a.p) || a.i - b.i)
    .slice(0, count)
    .map((x) => x.p);
}
