import type { ShopSettings } from '../../common/contracts/settings';
import type { Category, Product } from '../../common/contracts/catalog';

/** Data the server embedded in the HTML for the first render (no request waterfall). */
export interface Bootstrap {
  settings?: ShopSettings;
  products?: Product[];
  categories?: Category[];
  product?: Product | null;
}

let cached: Bootstrap | null = null;

export function readBootstrap(): Bootstrap {
  if (cached) return cached;
  const el = typeof document !== 'undefined' ? document.getElementById('fifty-bootstrap') : null;
  try {
    cached = el?.textContent ? (JSON.parse(el.textContent) as Bootstrap) : {};
  } catch {
    cached = {};
  }
  return cached;
}
