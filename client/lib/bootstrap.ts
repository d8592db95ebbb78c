import type { ShopSettings } from '../../common/contracts/settings';
import type { Category, DrawSale, HomeData, Product } from '../../common/contracts/catalog';
import type { PublicDraw } from '../../common/contracts/draws';

/** Data the server embedded in the HTML for the first render (no request waterfall). */
export interface Bootstrap {
  settings?: ShopSettings;
  products?: Product[];
  categories?: Category[];
  /** On /: the featured strip and the one grid page the URL names (never the whole catalogue). */
  home?: HomeData;
  /** On /category/{slug}: that category's products only. */
  categoryProducts?: { slug: string; products: Product[] };
  product?: Product | null;
  /** On /product/{id}: its draw (null: it is not sold by draw), so the first paint never offers Add to Cart for a drawn piece. */
  productDraw?: { productId: string; draw: PublicDraw | null };
  /** On pages with product cards: the draws that own their product's sale now (docs/draw.md). */
  drawSales?: DrawSale[];
  /** On /search?q=: the server's results for the trimmed query. */
  search?: { q: string; results: Product[] };
  /** When the server rendered the page (ms since epoch): release countdowns' first render. */
  now?: number;
}

let cached: Bootstrap | null = null;
let serverData: Bootstrap | null = null;

/**
 * Server rendering: the page being rendered reads this request's data. renderToString is
 * synchronous, so setting it just before and clearing it just after cannot mix two requests.
 */
export function withServerBootstrap<T>(data: Bootstrap, render: () => T): T {
  serverData = data;
  try {
    return render();
  } finally {
    serverData = null;
  }
}

export function readBootstrap(): Bootstrap {
  if (serverData) return serverData;
  if (cached) return cached;
  const el = typeof document !== 'undefined' ? document.getElementById('fifty-bootstrap') : null;
  try {
    cached = el?.textContent ? (JSON.parse(el.textContent) as Bootstrap) : {};
  } catch {
    cached = {};
  }
  return cached;
}
