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
] as const;

export type StaticPagePath = (typeof STATIC_PAGE_PATHS)[number];

/** Does `pathname` match a route pattern ("/product/:id")? A trailing slash is ignored. */
export function matchRoute(pattern: string, pathname: string): boolean {
  if (pattern === '/') return pathname === '/';
  const a = pattern.split('/');
  const b = pathname.replace(/\/+$/, '').split('/');
  return a.length === b.length && a.every((seg, i) => (seg.startsWith(':') ? b[i] !== '' : seg === b[i]));
}
