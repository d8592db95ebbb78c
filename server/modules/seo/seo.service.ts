import {
  PRODUCT_PAGE_MAX,
  PRODUCT_PAGE_SIZE,
  SEARCH_QUERY_MAX,
  type Category,
  type DrawSale,
  type HomeData,
  type Product,
} from '../../../common/contracts/catalog';
import { firstSentence } from '../../../common/domain/first-sentence';
import { isUuid } from '../../../common/domain/ids';
import { formatUsd } from '../../../common/domain/money';
import { gridSearch, parseGridQuery, pickFeatured, slicePage } from '../../../common/domain/product-page';
import { upcomingDrops } from '../../../common/domain/release';
import { DEFAULT_DROP_TIMING, dropBoundaries, listDrops, type DropTiming } from '../../../common/domain/drop-schedule';
import { sellOutStory } from '../../../common/domain/sell-out';
import { RETURN_POLICY } from '../../../common/domain/return-policy';
import type { ShopSettings } from '../../../common/contracts/settings';
import type { PublicDraw } from '../../../common/contracts/draws';
import {
  matchSegments,
  PAGE_PATHS,
  pathTo,
  STATIC_PAGE_PATHS,
  type RouteParams,
  type StaticPagePath,
} from '../../../common/domain/site-routes';
import { escapeHtml, escapeXml } from '../../lib/html';

/** A catalogue version with its products: pages are cached per version (the catalog module's snapshot). */
export interface SeoSnapshot {
  version: number;
  products: readonly Product[];
}

/** What pages read of the catalogue (the catalog module's service, wired in server/services.ts). */
export interface SeoCatalog {
  listProducts(): Promise<Product[]>;
  listCategories(): Promise<Category[]>;
  getProduct(id: string): Promise<Product | null>;
  search(q: string): Promise<Product[]>;
  /** The snapshot when it is current, else null (it must be re-read first). */
  freshSnapshot(): SeoSnapshot | null;
  current(): Promise<SeoSnapshot>;
}

/**
 * What the product page reads of its draw (the draws module's service, wired in server/services.ts): a
 * product sold by draw shows its draw in the first paint, never Add to Cart (docs/draw.md).
 */
export interface SeoDraws {
  publicDrawOfProduct(productId: string): Promise<PublicDraw | null>;
  /** The draw as the page shows it, in a few characters ('' for none); sync when known without a query. */
  productDrawStamp(productId: string): string | Promise<string>;
  /**
   * The draws that own their product's sale now: pages with product cards carry them, so a drawn piece's
   * card never offers Add to Cart in the first paint. Without them the browser asks.
   */
  drawSales?(): Promise<readonly DrawSale[]>;
  /** drawSales' answer in a few characters; sync while it is read and current. */
  drawSalesStamp?(): string | Promise<string>;
}

/** What pages read of the shop's settings (the settings module's service). */
export interface SeoSettings {
  shopName: string;
  publicSettings: ShopSettings;
  freeShippingThresholdCents: number;
  rates: ReadonlyArray<{ label: string; cents: number; days: string }>;
}

export interface PageHead {
  status: number;
  /** Inner HTML for <head>: title, meta, canonical, JSON-LD. Already escaped. */
  head: string;
  /** Data the client reads before its first render (no fetch waterfall). */
  bootstrap: Record<string, unknown>;
  /** Permanent redirect target (a path), when the page lives elsewhere. */
  redirect?: string;
  /**
   * A page anyone can mint without end (a search, a made-up draw id, an unknown filter, another spelling of
   * a page's path): cached apart from the catalogue's own pages, so walking them never evicts those.
   */
  openEnded: boolean;
}

/**
 * JSON that is safe inside a <script> data block: `<` can never close the element or open a comment,
 * and the two JavaScript line terminators are escaped for old parsers.
 */
export function jsonForScript(data: unknown): string {
  return JSON.stringify(data)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

interface PageMeta {
  title: string;
  description: string;
  /** Canonical path on this shop ("/product/…"), without query unless it matters. */
  path: string;
  status?: number;
  robots?: string;
  ogType?: 'website' | 'product';
  image?: string | null;
  imageAlt?: string;
  jsonLd?: unknown[];
  bootstrap?: Record<string, unknown>;
  extraMeta?: Array<[property: string, content: string]>;
  /** One of the catalogue's own pages, as many as the catalogue holds; any other page is open-ended (PageHead.openEnded). */
  catalogue?: boolean;
}

interface StaticPage {
  title: string;
  description: (s: SeoSettings) => string;
  robots?: string;
}

const NOINDEX = 'noindex, nofollow';

/** The server-rendered pages that show product cards: they carry the draws owning sales (docs/draw.md). */
const CARD_PAGES = [PAGE_PATHS.home, PAGE_PATHS.category, PAGE_PATHS.search, PAGE_PATHS.drops] as const;

// Every static page of the shared route table (common/domain/site-routes) has its entry here; routes match
// case-insensitively with an optional trailing slash, as in the browser's router.
const staticPages: Record<StaticPagePath, StaticPage> = {
  [PAGE_PATHS.checkout]: {
    title: 'Checkout',
    description: () => 'Secure checkout: enter your shipping details and pay by card.',
    robots: NOINDEX,
  },
  [PAGE_PATHS.orderSuccess]: {
    title: 'Payment Successful',
    description: () => 'Your order is confirmed. A confirmation e-mail is on its way.',
    robots: NOINDEX,
  },
  [PAGE_PATHS.findOrder]: {
    title: 'Find my order',
    description: () => 'Enter your order number and e-mail address and we will e-mail you the link to your order.',
    robots: NOINDEX,
  },
  [PAGE_PATHS.admin]: {
    title: 'Admin',
    description: () => 'Shop administration.',
    robots: NOINDEX,
  },
  [PAGE_PATHS.refundPolicy]: {
    title: 'Refund Policy',
    description: () =>
      `Request a return by e-mail within ${RETURN_POLICY.requestDays} days of receipt and ship it back within ${RETURN_POLICY.shipBackDays} days, unworn and with tags. Refunds are store credit valid for 1 year.`,
  },
  [PAGE_PATHS.sizeGuide]: {
    title: 'Size Guide',
    description: () =>
      'Chest, length and sleeve measurements in inches for every t-shirt and hoodie size, plus fit notes for caps, beanies and bags. Everything is made to order: measure carefully.',
  },
  [PAGE_PATHS.mission]: {
    title: 'Our Mission',
    description: () =>
      'Ultra-exclusive, limited-edition streetwear for an underground community: every design is capped at 50 pieces worldwide and never reproduced.',
  },
  [PAGE_PATHS.privacyPolicy]: {
    title: 'Privacy Policy',
    description: () => 'What we collect when you order or subscribe, why, who we share it with and how to have it deleted.',
  },
  [PAGE_PATHS.drops]: {
    title: 'Drops',
    description: () =>
      'Every FIFTY drop: what is live now, what drops next and how fast past editions sold out.',
  },
  [PAGE_PATHS.wishlist]: {
    title: 'Wishlist',
    description: () => 'The pieces you saved for later.',
    robots: NOINDEX,
  },
  [PAGE_PATHS.termsOfService]: {
    title: 'Terms of Service',
    description: () => 'The terms of buying limited, made-to-order pieces: orders, stock holds, prices, payment and returns.',
  },
  [PAGE_PATHS.shipping]: {
    title: 'Shipping Information',
    description: (s) => {
      const rates = s.rates.map(
        (r) => `${r.label.replace(/ Shipping$/, '').toLowerCase()} ${formatUsd(r.cents)} (${r.days})`,
      );
      return `Free shipping on orders of ${formatUsd(s.freeShippingThresholdCents)} and above. Rates: ${rates.join(', ')}.`;
    },
  },
};

/** Path segments decoded; null when the path is not valid percent-encoding. */
function decodeSegments(pathname: string): string[] | null {
  try {
    return pathname.split('/').filter(Boolean).map(decodeURIComponent);
  } catch {
    return null;
  }
}

/** Per-route <head> and bootstrap data, so crawlers and the first paint need no script. */
export function createSeoService(deps: {
  catalog: SeoCatalog;
  settings: SeoSettings;
  publicUrl?: string;
  /** The waiting room's lead and the drop window (home hero, /drops). */
  dropTiming?: DropTiming;
  /** Product pages carry the product's draw; without it they carry none and the browser asks. */
  draws?: SeoDraws;
}) {
  const { catalog, settings } = deps;
  const dropTiming = deps.dropTiming ?? DEFAULT_DROP_TIMING;
  const shop = settings.shopName;
  const configuredBase = deps.publicUrl ? deps.publicUrl.replace(/\/+$/, '') : null;

  /** Absolute base URL of the shop: PUBLIC_URL when set, else the origin the request came to. */
  function baseUrl(origin: string): string {
    return configuredBase ?? origin;
  }

  /** Shop paths are joined to the base like canonicals; full URLs (an S3 bucket) must be http(s). */
  function absolute(base: string, pathOrUrl: string | null | undefined): string | null {
    if (!pathOrUrl) return null;
    if (pathOrUrl.startsWith('/') && !pathOrUrl.startsWith('//')) return `${base}${pathOrUrl}`;
    try {
      const url = new URL(pathOrUrl);
      return url.protocol === 'https:' || url.protocol === 'http:' ? url.toString() : null;
    } catch {
      return null;
    }
  }

  function renderHead(base: string, meta: PageMeta): string {
    const url = `${base}${meta.path}`;
    const home = meta.path === PAGE_PATHS.home || meta.path.startsWith(`${PAGE_PATHS.home}?`);
    const fullTitle = home ? meta.title : `${meta.title} | ${shop}`;
    const image = absolute(base, meta.image);
    const lines = [
      `<title>${escapeHtml(fullTitle)}</title>`,
      `<meta name="description" content="${escapeHtml(meta.description)}">`,
      `<link rel="canonical" href="${escapeHtml(url)}">`,
    ];
    if (meta.robots) lines.push(`<meta name="robots" content="${escapeHtml(meta.robots)}">`);
    const og: Array<[string, string]> = [
      ['og:site_name', shop],
      ['og:type', meta.ogType ?? 'website'],
      ['og:title', fullTitle],
      ['og:description', meta.description],
      ['og:url', url],
    ];
    if (image) {
      og.push(['og:image', image]);
      if (meta.imageAlt) og.push(['og:image:alt', meta.imageAlt]);
    }
    og.push(...(meta.extraMeta ?? []));
    for (const [property, content] of og) {
      lines.push(`<meta property="${escapeHtml(property)}" content="${escapeHtml(content)}">`);
    }
    const twitter: Array<[string, string]> = [
      ['twitter:card', image ? 'summary_large_image' : 'summary'],
      ['twitter:title', fullTitle],
      ['twitter:description', meta.description],
    ];
    if (image) twitter.push(['twitter:image', image]);
    if (image && meta.imageAlt) twitter.push(['twitter:image:alt', meta.imageAlt]);
    for (const [name, content] of twitter) {
      lines.push(`<meta name="${escapeHtml(name)}" content="${escapeHtml(content)}">`);
    }
    // JSON-LD is a data block, not script: CSP does not apply to it, and `<` is escaped.
    for (const ld of meta.jsonLd ?? []) {
      lines.push(`<script type="application/ld+json">${jsonForScript(ld)}</script>`);
    }
    return lines.join('\n');
  }

  function productJsonLd(base: string, p: Product, url: string) {
    return {
      '@context': 'https://schema.org',
      '@type': 'Product',
      name: p.name,
      description: p.description,
      image: p.images.map((i) => absolute(base, i)).filter((i): i is string => i !== null),
      sku: p.id,
      category: p.category,
      material: p.materials || undefined,
      brand: { '@type': 'Brand', name: shop },
      offers: {
        '@type': 'Offer',
        url,
        price: p.salePrice ?? p.price,
        priceCurrency: 'USD',
        availability: p.inStock ? 'https://schema.org/InStock' : 'https://schema.org/OutOfStock',
        itemCondition: 'https://schema.org/NewCondition',
      },
    };
  }

  function notFoundPage(
    title: string,
    description: string,
    path: string,
    bootstrap: Record<string, unknown> = {},
  ): PageMeta {
    return { title, description, path, status: 404, robots: NOINDEX, bootstrap };
  }

  /** The home page's catalogue data: the featured strip and the one grid page the URL asks for. */
  async function homeData(search: URLSearchParams): Promise<HomeData> {
    const products = await catalog.listProducts();
    const grid = slicePage(products, parseGridQuery(search, PRODUCT_PAGE_MAX), PRODUCT_PAGE_SIZE);
    const upcoming = upcomingDrops(products, Date.now());
    return { featured: pickFeatured(products), grid, ...(upcoming.length > 0 ? { upcoming } : {}) };
  }

  async function homePage(base: string, search: URLSearchParams): Promise<PageMeta> {
    const [home, categories, sales] = await Promise.all([homeData(search), catalog.listCategories(), drawSales()]);
    const lead = [...home.featured, ...home.grid.products].find((p) => p.images.length > 0);
    const query = gridSearch(home.grid);
    return {
      title: `${shop} — Limited-Edition Sustainable Streetwear${home.grid.page > 1 ? ` — Page ${home.grid.page}` : ''}`,
      description:
        'Limited-edition, sustainable streetwear: t-shirts, hoodies and accessories. Every design is capped at 50 pieces worldwide, made to order and never reproduced once sold out.',
      path: query ? `${PAGE_PATHS.home}?${query}` : PAGE_PATHS.home,
      // A filter naming no category shows an empty grid: any slug would make one.
      catalogue: home.grid.category === null || categories.some((c) => c.slug === home.grid.category),
      image: lead?.images[0] ?? categories.find((c) => c.image)?.image ?? null,
      imageAlt: lead?.name,
      jsonLd: [
        {
          '@context': 'https://schema.org',
          '@type': 'Organization',
          name: shop,
          url: `${base}/`,
          logo: `${base}/favicon.svg`,
        },
        {
          '@context': 'https://schema.org',
          '@type': 'WebSite',
          name: shop,
          url: `${base}/`,
          potentialAction: {
            '@type': 'SearchAction',
            target: { '@type': 'EntryPoint', urlTemplate: `${base}${PAGE_PATHS.search}?q={search_term_string}` },
            'query-input': 'required name=search_term_string',
          },
        },
      ],
      // Only what the page shows: its grid page and the featured strip, never the whole catalogue;
      // the drops the hero may name (live or still to come), so it is in the first paint.
      bootstrap: { home, categories, dropTiming, drops: await heroCandidates(), ...sales },
    };
  }

  /** Drops not over yet: the hero picks from these at render and, later, in the browser. */
  async function heroCandidates(): Promise<Product[]> {
    const { live, upcoming } = listDrops(await catalog.listProducts(), Date.now(), dropTiming);
    return [...live, ...upcoming];
  }

  async function dropsPage(base: string): Promise<PageMeta> {
    const [products, sales] = await Promise.all([catalog.listProducts(), drawSales()]);
    const listing = listDrops(products, Date.now(), dropTiming);
    const all = [...listing.live, ...listing.upcoming, ...listing.past];
    const next = listing.live[0] ?? listing.upcoming[0];
    const lastSold = listing.past.find((p) => p.sellOutSeconds !== null);
    const told = [
      next ? `${listing.live[0] ? 'Live now' : 'Next'}: ${next.name}.` : null,
      lastSold ? `${lastSold.name}: ${sellOutStory(lastSold.editionSize, lastSold.sellOutSeconds)}.` : null,
    ].filter(Boolean);
    return {
      title: 'Drops',
      description: `Every ${shop} drop: live now, next up and how fast past editions sold out.${told.length ? ` ${told.join(' ')}` : ''}`,
      path: PAGE_PATHS.drops,
      catalogue: true,
      image: all.find((p) => p.images.length > 0)?.images[0] ?? null,
      imageAlt: all.find((p) => p.images.length > 0)?.name,
      jsonLd: [
        {
          '@context': 'https://schema.org',
          '@type': 'CollectionPage',
          name: 'Drops',
          url: `${base}${PAGE_PATHS.drops}`,
        },
      ],
      bootstrap: { dropTiming, drops: all, ...sales },
    };
  }

  /**
   * The product's draw for its page's first render: the panel takes the place of Add to Cart from the first
   * paint. Without the published ranking and winners (the product page shows neither; a run draw's list
   * would make every page the size of its entries). undefined when it could not be read: the browser asks.
   */
  async function productDraw(id: string): Promise<{ productId: string; draw: PublicDraw | null } | undefined> {
    if (!deps.draws) return undefined;
    try {
      const draw = await deps.draws.publicDrawOfProduct(id);
      return { productId: id, draw: draw && { ...draw, entries: [], winners: [] } };
    } catch {
      return undefined;
    }
  }

  /**
   * The draws owning their product's sale, for a page with product cards (docs/draw.md): each drawn piece's
   * card leads to its draw from the first paint. Left out when it could not be read: the browser asks.
   */
  async function drawSales(): Promise<{ drawSales?: readonly DrawSale[] }> {
    if (!deps.draws?.drawSales) return {};
    try {
      return { drawSales: await deps.draws.drawSales() };
    } catch {
      return {};
    }
  }

  async function productPage(base: string, id: string | undefined): Promise<PageMeta> {
    const [product, categories, draw] = await Promise.all([
      isUuid(id) ? catalog.getProduct(id.toLowerCase()) : null,
      // The breadcrumb names the category: the first paint shows 'T-Shirts', not the slug.
      catalog.listCategories(),
      isUuid(id) ? productDraw(id.toLowerCase()) : undefined,
    ]);
    if (!product) {
      return notFoundPage(
        'Product Not Found',
        "The product you're looking for doesn't exist.",
        pathTo(PAGE_PATHS.product, { id: id ?? '' }),
        {
          product: null,
        },
      );
    }
    const path = pathTo(PAGE_PATHS.product, { id: product.id });
    const price = product.salePrice ?? product.price;
    return {
      catalogue: true,
      title: product.name,
      description: `${product.name}: ${firstSentence(product.description)}`,
      path,
      ogType: 'product',
      image: product.images[0] ?? null,
      imageAlt: product.name,
      extraMeta: [
        ['product:price:amount', price],
        ['product:price:currency', 'USD'],
        ['product:availability', product.inStock ? 'in stock' : 'out of stock'],
      ],
      jsonLd: [productJsonLd(base, product, `${base}${path}`)],
      bootstrap: { product, categories, ...(draw ? { productDraw: draw } : {}) },
    };
  }

  async function categoryPage(base: string, slug: string | undefined): Promise<PageMeta> {
    const [categories, all, sales] = await Promise.all([catalog.listCategories(), catalog.listProducts(), drawSales()]);
    const category: Category | undefined = categories.find((c) => c.slug === slug);
    if (!category) {
      return notFoundPage(
        'Category Not Found',
        "The category you're looking for doesn't exist.",
        pathTo(PAGE_PATHS.category, { slug: slug ?? '' }),
        { categories },
      );
    }
    const products = all.filter((p) => p.category === category.slug);
    const lead = products.find((p) => p.images.length > 0);
    const path = pathTo(PAGE_PATHS.category, { slug: category.slug });
    return {
      catalogue: true,
      title: category.name,
      description: `${category.name}: ${category.description}`,
      path,
      image: category.image ?? lead?.images[0] ?? null,
      imageAlt: category.name,
      jsonLd: [
        {
          '@context': 'https://schema.org',
          '@type': 'CollectionPage',
          name: category.name,
          description: category.description,
          url: `${base}${path}`,
        },
      ],
      // Only this category's products: the page never shows the others.
      bootstrap: { categories, categoryProducts: { slug: category.slug, products }, ...sales },
    };
  }

  async function searchPage(query: string): Promise<PageMeta> {
    const q = query.trim();
    // The results the browser would fetch (same ranking, same length limit as GET /api/products?q=).
    const [results, categories, sales] =
      q && q.length <= SEARCH_QUERY_MAX
        ? await Promise.all([catalog.search(q), catalog.listCategories(), drawSales()])
        : [null, null, {}];
    return {
      bootstrap: results ? { search: { q, results }, categories, ...sales } : {},
      title: q ? `Search results for "${q}"` : 'Search',
      description: q
        ? `${shop} products matching "${q}": limited-edition t-shirts, hoodies and accessories.`
        : `Search the ${shop} catalogue of limited-edition t-shirts, hoodies and accessories.`,
      path: q ? `${PAGE_PATHS.search}?q=${encodeURIComponent(q)}` : PAGE_PATHS.search,
      // Result pages are thin and endless: keep them out of indexes, but follow their links.
      robots: 'noindex, follow',
    };
  }

  type Resolved = PageMeta | { redirect: string };

  /**
   * The pages the server renders, by the shared route table (common/domain/site-routes.ts): the first
   * pattern that matches wins. Every static page of the table has its entry in `staticPages`.
   */
  function pageRoutes(url: URL, base: string): Array<[pattern: string, render: (params: RouteParams) => Promise<Resolved> | Resolved]> {
    const staticRoute = (path: StaticPagePath): [string, () => PageMeta] => [
      path,
      () => {
        const page = staticPages[path];
        return { title: page.title, description: page.description(settings), path, robots: page.robots, catalogue: true };
      },
    ];
    return [
      [PAGE_PATHS.home, () => homePage(base, url.searchParams)],
      [PAGE_PATHS.product, (p) => productPage(base, p.id)],
      [PAGE_PATHS.productAlias, (p) => productPage(base, p.id)],
      [PAGE_PATHS.category, (p) => categoryPage(base, p.slug)],
      [PAGE_PATHS.categoryAlias, (p) => ({ redirect: `${pathTo(PAGE_PATHS.category, { slug: p.slug! })}${url.search}` })],
      [PAGE_PATHS.search, () => searchPage(url.searchParams.get('q') ?? '')],
      [PAGE_PATHS.drops, () => dropsPage(base)],
      // The draw's pages read the draw in the browser (it changes as it runs; pages are cached per catalogue version).
      [
        PAGE_PATHS.draw,
        (p) => ({
          title: 'The draw',
          description: 'A draw anyone can check: the commitment, the seed, every entry in rank order and the winners.',
          path: pathTo(PAGE_PATHS.draw, { id: p.id! }),
        }),
      ],
      [
        PAGE_PATHS.drawEntry,
        (p) => ({ title: 'Your draw entry', description: 'Your entry in a draw.', path: pathTo(PAGE_PATHS.drawEntry, { token: p.token! }), robots: NOINDEX }),
      ],
      // The order page opens with its signed key in the query; neither it nor the certificate is indexed.
      [
        PAGE_PATHS.order,
        (p) => ({ title: 'Your order', description: 'Your order: its status, pieces and delivery.', path: pathTo(PAGE_PATHS.order, { orderNumber: p.orderNumber! }), robots: NOINDEX }),
      ],
      [
        PAGE_PATHS.certificate,
        (p) => ({ title: 'Certificate of authenticity', description: 'A numbered limited-edition piece, made to order.', path: pathTo(PAGE_PATHS.certificate, { id: p.id! }), robots: NOINDEX }),
      ],
      ...STATIC_PAGE_PATHS.map(staticRoute),
    ];
  }

  async function resolve(url: URL, base: string): Promise<Resolved> {
    const segments = decodeSegments(url.pathname);
    if (!segments) return notFoundPage('Page Not Found', 'The page you are looking for does not exist.', '/');
    for (const [pattern, render] of pageRoutes(url, base)) {
      const params = matchSegments(pattern, segments);
      if (params) return await render(params);
    }
    return notFoundPage('Page Not Found', 'The page you are looking for does not exist.', url.pathname);
  }

  /**
   * The URL a page is rendered (and cached) for: only the query parameters that page reads are
   * kept (`?utm_source=…` does not make a new page), in one spelling.
   */
  function pageUrl(url: URL): URL {
    const out = new URL(url.href);
    out.search = '';
    out.hash = '';
    const segments = decodeSegments(url.pathname) ?? [];
    if (matchSegments(PAGE_PATHS.home, segments)) {
      out.search = gridSearch(parseGridQuery(url.searchParams, PRODUCT_PAGE_MAX));
    } else if (matchSegments(PAGE_PATHS.search, segments)) {
      const q = (url.searchParams.get('q') ?? '').trim();
      if (q) out.search = `q=${encodeURIComponent(q)}`;
    } else if (matchSegments(PAGE_PATHS.categoryAlias, segments)) {
      out.search = url.search; // kept on the redirect
    }
    return out;
  }

  /**
   * Pages name drops by the time (the home hero, /drops): a page rendered before a drop's boundary (a day
   * before, room opens, release, window ends) is stale after it. The version pages are cached under is the
   * catalogue's times a million plus how many boundaries have passed, so crossing one renders pages anew.
   */
  let boundaries: { products: readonly Product[]; at: number[] } | null = null;
  function pageVersion(snapshot: { version: number; products: readonly Product[] }): number {
    if (boundaries?.products !== snapshot.products) {
      boundaries = { products: snapshot.products, at: dropBoundaries(snapshot.products, dropTiming) };
    }
    const now = Date.now();
    let passed = 0;
    while (passed < boundaries.at.length && boundaries.at[passed]! <= now) passed++;
    return snapshot.version * 1_000_000 + Math.min(passed, 999_999);
  }

  /**
   * What a page shows besides the catalogue, in a few characters, for the page cache's key (with pageUrl's
   * URL): a product page's draw, the draws owning sales on a page with product cards ('' for every other page). Sync unless the draws must be asked, so a cached
   * page of a product without a draw is still answered without a promise.
   */
  function pageVariant(url: URL): string | Promise<string> {
    if (!deps.draws) return '';
    const segments = decodeSegments(url.pathname) ?? [];
    if (CARD_PAGES.some((path) => matchSegments(path, segments))) return drawSalesVariant(deps.draws);
    const params = matchSegments(PAGE_PATHS.product, segments) ?? matchSegments(PAGE_PATHS.productAlias, segments);
    const id = params?.id;
    if (!isUuid(id)) return '';
    try {
      const stamp = deps.draws.productDrawStamp(id.toLowerCase());
      // Unread (the database away): a page of its own, whose draw is then most likely unread too, so its
      // browser asks; the page is rendered anew once the stamp reads again.
      return typeof stamp === 'string' ? stamp : stamp.catch(() => 'unread');
    } catch {
      return 'unread';
    }
  }

  /** A page with product cards: the draws owning sales now, as a stamp (unread: a page of its own, like above). */
  function drawSalesVariant(draws: SeoDraws): string | Promise<string> {
    if (!draws.drawSalesStamp) return '';
    try {
      const stamp = draws.drawSalesStamp();
      return typeof stamp === 'string' ? stamp : stamp.catch(() => 'unread');
    } catch {
      return 'unread';
    }
  }

  return {
    baseUrl,
    pageUrl,
    pageVariant,
    homeData,
    /** Version pages are rendered for (the catalogue's and the drops' clock); null when it must be re-read first. */
    freshCatalogVersion(): number | null {
      const snapshot = catalog.freshSnapshot();
      return snapshot ? pageVersion(snapshot) : null;
    },
    async catalogVersion(): Promise<number> {
      return pageVersion(await catalog.current());
    },

    async renderPage(url: URL): Promise<PageHead> {
      const base = baseUrl(url.origin);
      const meta = await resolve(url, base);
      if ('redirect' in meta) return { status: 301, head: '', bootstrap: {}, redirect: meta.redirect, openEnded: true };
      const status = meta.status ?? 200;
      return {
        status,
        // Only the one spelling of a catalogue page (its canonical path) sits with the catalogue: '/Mission',
        // '/mission/' or an upper-case product id are minted variants.
        openEnded: status !== 200 || meta.catalogue !== true || meta.path !== `${url.pathname}${url.search}`,
        head: renderHead(base, meta),
        bootstrap: {
          settings: settings.publicSettings,
          ...meta.bootstrap,
          // Pages with products carry the time they were rendered at: the browser's first render
          // computes release countdowns from it, as the server did (hydration matches).
          ...(meta.bootstrap && Object.keys(meta.bootstrap).length > 0 ? { now: Date.now() } : {}),
        },
      };
    },

    async sitemapXml(origin: string): Promise<string> {
      const base = baseUrl(origin);
      const [products, categories] = await Promise.all([catalog.listProducts(), catalog.listCategories()]);
      const paths = [
        PAGE_PATHS.home,
        ...Object.entries(staticPages)
          .filter(([, p]) => !p.robots)
          .map(([path]) => path),
        ...categories.map((c) => pathTo(PAGE_PATHS.category, { slug: c.slug })),
        ...products.map((p) => pathTo(PAGE_PATHS.product, { id: p.id })),
      ];
      const urls = paths.map((p) => `  <url><loc>${escapeXml(`${base}${p}`)}</loc></url>`);
      return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
    },

    robotsTxt(origin: string): string {
      return [
        'User-agent: *',
        'Allow: /',
        `Disallow: ${PAGE_PATHS.admin}`,
        `Disallow: ${PAGE_PATHS.checkout}`,
        '',
        `Sitemap: ${baseUrl(origin)}/sitemap.xml`,
        '',
      ].join('\n');
    },
  };
}

export type SeoService = ReturnType<typeof createSeoService>;
