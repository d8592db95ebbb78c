/**
 * A cart line priced at today's price: what checkout snapshots and charges for. The cart module answers
 * with it and checkout's port asks for it, so both name this one shape (modules import no other module).
 */
export interface PricedCartLine {
  productId: string;
  name: string;
  unitPriceCents: number;
  quantity: number;
  selectedSize: string | null;
  selectedColor: string | null;
  image: string | null;
  /** Units on sale right now (already net of every hold), for a fast "sold out" answer. */
  available: number;
  /** Scheduled release (ISO, UTC) or null; checkout refuses a line before it (docs/product.md §9, Scheduled release). */
  releaseAt: string | null;
  /** Units one shopper may buy of the product (docs/product.md §9, Per-shopper limits). */
  maxPerShopper: number;
}
