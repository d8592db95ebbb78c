import { z } from 'zod';
import { safeString } from './safe-string';
import { PRODUCT_PAGE_MAX, PRODUCT_PAGE_SIZE } from '../domain/product-page';

export const moneyString = safeString().regex(/^\d+\.\d{2}$/);

export const colorSchema = z.object({ name: safeString(), value: safeString() });
export type ProductColor = z.infer<typeof colorSchema>;

/**
 * Pieces left of one size (and colour, when colours are stocked apart) of an edition (ADR 015). size
 * null: the unsplit "one run", from which every listed size draws. Absent or only the one run: the
 * product is one pool, as before sizes had their own stock.
 */
export const sizeStockSchema = z.object({
  size: safeString().nullable(),
  colour: safeString().nullable(),
  left: z.number().int(),
});
export type SizeStock = z.infer<typeof sizeStockSchema>;

export const productSchema = z.object({
  id: safeString().uuid(),
  name: safeString(),
  description: safeString(),
  price: moneyString,
  salePrice: moneyString.nullable(),
  category: safeString(),
  subcategory: safeString().nullable(),
  materials: safeString(),
  sustainabilityInfo: safeString(),
  stock: z.number().int(),
  inStock: z.boolean(),
  isNew: z.boolean(),
  isOnSale: z.boolean(),
  images: z.array(safeString()),
  sizes: z.array(safeString()),
  colors: z.array(colorSchema),
  editionSize: z.number().int(),
  soldCount: z.number().int(),
  /** Scheduled release (ISO 8601, UTC); null: on sale now (common/domain/release.ts). */
  releaseAt: safeString().nullable(),
  /** Units one shopper may buy of this product, all sizes together (common/domain/purchase-limit.ts). */
  maxPerShopper: z.number().int(),
  /** A final sale, marked at listing (the refund policy): the product page says it cannot be returned. */
  nonReturnable: z.boolean(),
  /** When the edition's last piece sold (ISO 8601); null while any is left or held (common/domain/sell-out.ts). */
  soldOutAt: safeString().nullable(),
  /** Seconds from release (or creation) to sell-out: 'All 50 sold in 3 min 12 s'; null while not sold out. */
  sellOutSeconds: z.number().int().nullable(),
  /** Pieces left per size (sizeStockSchema); `stock` stays the sum. */
  sizeStock: z.array(sizeStockSchema).optional(),
});
export type Product = z.infer<typeof productSchema>;

/** GET /api/products/:id/stock and each `stock` event of /api/products/:id/stock/events. */
export const liveStockSchema = z.object({
  productId: safeString().uuid(),
  /** Pieces a shopper can take now ('7 of 50 left'). */
  left: z.number().int(),
  editionSize: z.number().int(),
  /** Buyable now: pieces left and not paused by the owner. */
  inStock: z.boolean(),
  soldOutAt: safeString().nullable(),
  sellOutSeconds: z.number().int().nullable(),
  /**
   * None left to take but some held in checkouts: not sold out, a lapsed hold or a refund puts a piece back
   * (docs/product.md §9, Drops). A flag, not the held count, so a hold that changes nothing else sends no frame.
   */
  inCheckouts: z.boolean().optional(),
  /** Pieces a shopper can take now per size (sizeStockSchema); `left` stays the sum. */
  sizeStock: z.array(sizeStockSchema).optional(),
});
export type LiveStock = z.infer<typeof liveStockSchema>;

/**
 * A product whose sale its draw owns now (docs/draw.md: from the announcement until the draw has run,
 * DRAW_OWNS_SALE): its card leads to the draw instead of an Add to Cart the server would refuse.
 * GET /api/products/draws → drawSaleListSchema, and embedded in every server-rendered page with product cards.
 */
export const drawSaleSchema = z.object({
  productId: safeString().uuid(),
  drawId: safeString().uuid(),
  /** One of DRAW_OWNS_SALE (common/domain/draw-lifecycle.ts). */
  status: z.enum(['scheduled', 'open', 'closed', 'drawn']),
  /** The entry window and the draw time (ISO 8601, UTC): the card says which part of it the shopper is in. */
  opensAt: safeString(),
  closesAt: safeString(),
  drawAt: safeString(),
});
export type DrawSale = z.infer<typeof drawSaleSchema>;
export const drawSaleListSchema = z.array(drawSaleSchema);

export const categorySchema = z.object({
  id: safeString().uuid(),
  slug: safeString(),
  name: safeString(),
  description: safeString(),
  image: safeString().nullable(),
});
export type Category = z.infer<typeof categorySchema>;

export const productIdParams = z.object({ id: safeString().uuid({ message: 'Invalid product id' }) });
export const categorySlugParams = z.object({ slug: safeString().min(1).max(100) });
/** Longest search query the catalogue accepts. */
export const SEARCH_QUERY_MAX = 200;

export const productsQuery = z.object({
  q: safeString().max(SEARCH_QUERY_MAX).optional(),
  category: safeString().max(100).optional(),
});

// Plain constants live in common/domain (no zod), so the storefront can read them without loading zod.
export { PRODUCT_PAGE_SIZE, PRODUCT_PAGE_MAX };

export const productPageQuery = z.object({
  category: z
    .string()
    .regex(/^[a-z0-9-]{1,100}$/, { message: 'Invalid category' })
    .optional(),
  page: z.coerce
    .number({ message: 'Invalid page' })
    .int({ message: 'Invalid page' })
    .min(1, { message: 'Invalid page' })
    .max(PRODUCT_PAGE_MAX, { message: 'Invalid page' })
    .optional(),
});

// Response schemas. GET /api/products/:id → productSchema, /api/categories/:slug → categorySchema and
// /api/products/upcoming → productListSchema are encoded by them on every answer. The four hot lists
// (GET /api/categories → categoryListSchema, /api/products → productListSchema, /api/products/page →
// productPageSchema, /api/products/featured → productListSchema) are sent as the catalogue snapshot's
// precompressed bytes (server/plugins/precompressed.ts) without a per-request serializer: these schemas
// document their shape, and server/modules/catalog/catalog.routes.test.ts parses them with it.
export const productListSchema = z.array(productSchema);
export const categoryListSchema = z.array(categorySchema);

/** One page of the product grid (GET /api/products/page, and the home page's embedded data). */
export const productPageSchema = z.object({
  category: safeString().nullable(),
  page: z.number().int(),
  pageCount: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
  products: productListSchema,
});

/** One page of the product grid (GET /api/products/page, and the home page's embedded data). */
export interface ProductPage {
  /** Category slug the list is filtered by, or null for every product. */
  category: string | null;
  /** 1-based, already clamped to the last page. */
  page: number;
  pageCount: number;
  pageSize: number;
  total: number;
  products: Product[];
}

/** What the home page renders from the catalogue: the featured strip and one page of the grid. */
export interface HomeData {
  featured: Product[];
  /** Products whose release is still to come, soonest first ('Upcoming drops'). */
  upcoming?: Product[];
  grid: ProductPage;
}

/** Sizes a category's products may have (docs/product.md §3). */
export const categorySizes: Record<string, readonly string[]> = {
  tshirts: ['XS', 'S', 'M', 'L', 'XL', 'XXL'],
  hoodies: ['S', 'M', 'L', 'XL', 'XXL'],
  accessories: ['One Size', '7.5"', '8.0"', '8.25"', '8.5"'],
};
