// The shop's page routes, one table for the browser's router and the server's page rendering
// (titles, status codes, sitemap): a page added here must be described on both sides.

export const PAGE_PATHS = {
  home: '/',
  product: '/product/:id',
  productAlias: '/products/:id',
  category: '/category/:slug',
  /** Redirects to /category/:slug. */
  categoryAlias: '/categories/:slug',
  search: '/search',
  checkout: '/checkout',
  orderSuccess: '/order-success',
  admin: '/admin',
  refundPolicy: '/refund-policy',
  sizeGuide: '/size-guide',
  mission: '/mission',
  shipping: '/shipping',
  privacyPolicy: '/privacy-policy',
  termsOfService: '/terms-of-service',
  drops: '/drops',
  wishlist: '/wishlist',
  /** A draw anyone can check (docs/draw.md). */
  draw: '/draws/:id',
  /** The link mailed to a draw's entrant: confirms, shows and changes the entry. */
  drawEntry: '/draw-entry/:token',
  /** "Find my order": order number + e-mail mails the order page's link again. */
  findOrder: '/orders',
  /** A buyer's order page, opened with the signed `?key=` of its mails and the success page. */
  order: '/orders/:orderNumber',
  /** A piece's public certificate (product, image, "No. 17 of 50", made on). */
  certificate: '/certificate/:id',
} as const;

export type PagePath = (typeof PAGE_PATHS)[keyof typeof PAGE_PATHS];

/** One-segment pages with fixed content: the server gives each its title and description. */
export const STATIC_PAGE_PATHS = [
  PAGE_PATHS.checkout,
  PAGE_PATHS.orderSuccess,
  PAGE_PATHS.admin,
  PAGE_PATHS.refundPolicy,
  PAGE_PATHS.sizeGuide,
  PAGE_PATHS.mission,
  PAGE_PATHS.shipping,
  PAGE_PATHS.privacyPolicy,
  PAGE_PATHS.termsOfService,
  PAGE_PATHS.drops,
  PAGE_PATHS.wishlist,
  PAGE_PATHS.findOrder,
] as const;

export type StaticPagePath = (typeof STATIC_PAGE_PATHS)[number];

/** Does `pathname` match a route pattern ("/product/:id")? A trailing slash is ignored. */
export function matchRoute(pattern: string, pathname: string): boolean {
  if (pattern === '/') return pathname === '/';
  const a = pattern.split('/');
  const b = pathname.replace(/\/+$/, '').split('/');
  return a.length === b.length && a.every((seg, i) => (seg.startsWith(':') ? b[i] !== '' : seg === b[i]));
}

export type RouteParams = Record<string, string>;

/**
 * The parameters of a path (already split into decoded segments, empty ones dropped) under a route
 * pattern, or null when it does not match. Fixed segments match case-insensitively, as the browser's
 * router does, so '/Product/x' is the product page on both sides.
 */
export function matchSegments(pattern: string, segments: readonly string[]): RouteParams | null {
  const parts = pattern.split('/').filter(Boolean);
  if (parts.length !== segments.length) return null;
  const params: RouteParams = {};
  for (const [i, part] of parts.entries()) {
    const seg = segments[i]!;
    if (part.startsWith(':')) {
      if (seg === '') return null;
      params[part.slice(1)] = seg;
    } else if (part.toLowerCase() !== seg.toLowerCase()) return null;
  }
  return params;
}

/** A path for a route pattern, each parameter percent-encoded: pathTo('/product/:id', { id }) → '/product/…'. */
export function pathTo(pattern: string, params: RouteParams = {}): string {
  return pattern.replace(/:([a-zA-Z]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`pathTo: no value for :${name} in ${pattern}`);
    return encodeURIComponent(value);
  });
}
