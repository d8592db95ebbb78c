import type { Product } from '../../../common/contracts/catalog';

/**
 * What the draws module needs from outside, declared here and wired in server/services.ts: draws imports
 * no other module (docs/architecture.md, "Module map"). Work across modules (entering with a card,
 * settling with stock and orders) is in server/flows/enter-draw.ts and settle-draw.ts.
 */

/** The catalogue's products (catalog): name, price and sizes, read fresh from the database. */
export interface DrawCatalog {
  getProductFresh(id: string): Promise<Product | null>;
}
