import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { Db } from '../client';
import { categories, products } from '../../modules/catalog/catalog.tables';
import { discountCodes } from '../../modules/checkout/checkout.tables';
import { discountSeeds, seedCategories, seedProducts } from './catalog-data';
import { renderCategoryArt, renderProductArt } from './product-art';

/** Seeds the demo catalogue into an empty database; does nothing when products exist. */
export async function seedIfEmpty(db: Db, dataDir: string): Promise<boolean> {
  const [{ count }] = await db.select({ count: sql<number>`count(*)::int` }).from(products);
  if (count > 0) return false;
  await seedCatalogue(db, dataDir);
  return true;
}

export async function seedCatalogue(db: Db, dataDir: string, opts: { art?: boolean } = {}): Promise<void> {
  const outDir = path.join(dataDir, 'uploads', 'seed');
  const art = opts.art ?? true;
  const categoryImages = art
    ? await Promise.all(seedCategories.map((c) => renderCategoryArt(c.slug, outDir)))
    : seedCategories.map((c) => `/uploads/seed/category-${c.slug}.webp`);
  const productImages: string[][] = [];
  if (!art) productImages.push(...seedProducts.map((_p, i) => [`/uploads/seed/p${i + 1}-1.webp`]));
  // Modest concurrency: sharp already uses both cores.
  for (let i = 0; art && i < seedProducts.length; i += 4) {
    const batch = seedProducts.slice(i, i + 4);
    productImages.push(
      ...(await Promise.all(
        batch.map((p, j) =>
          Promise.all(
            p.colors.slice(0, 4).map((c, k) =>
              renderProductArt({
                kind: p.art.kind,
                color: c.value,
                graphic: p.art.graphic,
                outDir,
                key: `p${i + j + 1}-${k + 1}`,
              }),
            ),
          ),
        ),
      )),
    );
  }
  await db.transaction(async (tx) => {
    await tx
      .insert(categories)
      .values(seedCategories.map((c, i) => ({ slug: c.slug, name: c.name, description: c.description, image: categoryImages[i] })))
      .onConflictDoNothing();
    const base = Date.now() - seedProducts.length * 1000;
    await tx.insert(products).values(
      seedProducts.map((p, i) => ({
        name: p.name,
        description: p.description,
        price: p.price,
        salePrice: p.salePrice,
        category: p.category,
        subcategory: p.subcategory,
        materials: p.materials,
        sustainabilityInfo: p.sustainabilityInfo,
        stock: p.stock,
        inStock: p.inStock,
        isNew: p.isNew,
        isOnSale: p.isOnSale,
        images: productImages[i],
        sizes: p.sizes,
        colors: p.colors,
        // Stable listing order: the order the catalogue is written in.
        createdAt: new Date(base + i * 1000),
      })),
    );
    await tx
      .insert(discountCodes)
      .values(discountSeeds.map((d) => ({ code: d.code, discountPercent: d.discountPercent, maxUsage: d.maxUsage })))
      .onConflictDoNothing();
  });
}
