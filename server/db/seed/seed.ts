import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { Db } from '../client';
import { categories, products } from '../../modules/catalog/catalog.tables';
import { discountCodes } from '../../modules/discounts/discounts.tables';
import { EDITION_SIZE } from '../../../common/domain/stock';
import { parseMoney, parseMoneyOrNull } from '../../../common/domain/money';
import { demoSizeRun, demoSizeStock } from '../../../common/domain/size-run';
import { productVariants } from '../../modules/inventory/variants.tables';
import { discountSeeds, seedCategories, seedProductImages, seedProducts } from './catalog-data';
import { renderSeedArt } from './product-art';

/**
 * The demo catalogue's per-shopper limit: generous, because the demo shop is where people (and acceptance
 * suites) try the cart and checkout over and over, as one shopper with one test card (the spec's cart has
 * no upper bound of its own). A product the owner adds gets the default, 2 (docs/product.md §9).
 */
export const DEMO_MAX_PER_SHOPPER = 10;

export interface SeedOptions {
  /** false: the image paths are written but the art is not drawn (tests). */
  art?: boolean;
  /**
   * Split every product with sizes into a realistic size run (ADR 015; common/domain/size-run.ts
   * demoSizeRun: 5/10/15/10/5/5 over XS–XXL), its sold pieces taken from the popular sizes first
   * (demoSizeStock). Off by default, for the demo shop too: its product pages keep the spec's size dropdown
   * ('Select a size') and its stock one pool per product until the owner splits a product into sizes.
   */
  sizeRuns?: boolean;
}

/** Seeds the demo catalogue into an empty database (one pool per product unless asked for size runs); does nothing when products exist. */
export async function seedIfEmpty(db: Db, dataDir: string, opts: SeedOptions = {}): Promise<boolean> {
  const [{ count }] = await db.select({ count: sql<number>`count(*)::int` }).from(products);
  if (count > 0) return false;
  await seedCatalogue(db, dataDir, opts);
  return true;
}

export async function seedCatalogue(db: Db, dataDir: string, opts: SeedOptions = {}): Promise<void> {
  const outDir = path.join(dataDir, 'uploads', 'seed');
  // Tests skip rendering: the paths are the same, the files just are not drawn.
  const art = opts.art === false ? null : await renderSeedArt(outDir);
  const categoryImages = seedCategories.map(
    (c) => art?.categories.get(c.slug) ?? `/uploads/seed/${c.imageKey}.webp`,
  );
  const productImages = seedProducts.map((p) => art?.products.get(p.name) ?? seedProductImages(p));
  await db.transaction(async (tx) => {
    await tx
      .insert(categories)
      .values(seedCategories.map((c, i) => ({ slug: c.slug, name: c.name, description: c.description, image: categoryImages[i] })))
      .onConflictDoNothing();
    const base = Date.now() - seedProducts.length * 1000;
    const inserted = await tx.insert(products).values(
      seedProducts.map((p, i) => ({
        name: p.name,
        description: p.description,
        priceCents: parseMoney(p.price),
        salePriceCents: parseMoneyOrNull(p.salePrice),
        category: p.category,
        subcategory: p.subcategory,
        materials: p.materials,
        sustainabilityInfo: p.sustainabilityInfo,
        stock: p.stock,
        // The demo history: every piece not left has been sold, so a product showing 7 left has
        // sold 43 and the next piece sold is No. 44 of 50 (sold + held + stock = edition size).
        editionSize: EDITION_SIZE,
        soldCount: EDITION_SIZE - p.stock,
        maxPerShopper: DEMO_MAX_PER_SHOPPER,
        inStock: p.inStock,
        isNew: p.isNew,
        isOnSale: p.isOnSale,
        images: productImages[i],
        sizes: p.sizes,
        colors: p.colors,
        // Stable listing order: the order the catalogue is written in.
        createdAt: new Date(base + i * 1000),
      })),
    ).returning({ id: products.id, name: products.name, createdAt: products.createdAt });
    const byName = new Map(inserted.map((r) => [r.name, r]));
    if (opts.sizeRuns) {
      // Per size: pieces of the run, left as the demo history sold them; the product row keeps the sums.
      const rows = seedProducts.flatMap((p) => {
        if (p.sizes.length === 0) return [];
        const run = demoSizeRun(p.sizes, EDITION_SIZE);
        const left = demoSizeStock(run, p.stock);
        const row = byName.get(p.name)!;
        return run.map((e, j) => ({
          productId: row.id,
          size: e.size,
          position: j + 1,
          stock: left[j]!,
          soldCount: e.pieces - left[j]!,
          soldOutAt: left[j] === 0 && e.pieces > 0 ? row.createdAt : null,
        }));
      });
      if (rows.length > 0) await tx.insert(productVariants).values(rows);
    }
    await tx
      .insert(discountCodes)
      .values(discountSeeds.map((d) => ({ code: d.code, discountPercent: d.discountPercent, maxUsage: d.maxUsage })))
      .onConflictDoNothing();
  });
}
