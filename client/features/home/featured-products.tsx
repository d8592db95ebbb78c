import type { Product } from '../../../common/contracts/catalog';
import { ProductCard, isSoldOut } from '../catalog/product-card';

const FEATURED_COUNT = 4;

/** New and on-sale pieces that can still be bought lead; the rest of the catalogue fills in. */
export function pickFeatured(products: readonly Product[], count = FEATURED_COUNT): Product[] {
  const score = (p: Product) => (isSoldOut(p) ? 0 : (p.isNew ? 2 : 0) + (p.isOnSale ? 1 : 0) + 1);
  return [...products]
    .map((p, i) => ({ p, i }))
    .sort((a, b) => score(b.p) - score(a.p) || a.i - b.i)
    .slice(0, count)
    .map((x) => x.p);
}

export function FeaturedProducts({ products }: { products: readonly Product[] }) {
  const featured = pickFeatured(products);
  if (featured.length === 0) return null;
  return (
    <section aria-labelledby="featured-title" className="bg-bone py-16 md:py-24">
      <div className="mx-auto max-w-7xl px-4 md:px-6">
        <div className="mb-8 flex flex-wrap items-end justify-between gap-4 md:mb-12">
          <div>
            <p className="text-xs font-bold uppercase tracking-[0.3em] text-muted">Staff picks</p>
            <h2 id="featured-title" className="mt-2 font-display text-5xl uppercase leading-none md:text-7xl">
              Featured
            </h2>
          </div>
          <p className="max-w-sm text-muted">
            Fresh arrivals and last-chance markdowns — numbered pieces, going fast.
          </p>
        </div>
        <ul className="-mx-4 flex snap-x snap-mandatory gap-4 overflow-x-auto px-4 pb-4 md:mx-0 md:grid md:grid-cols-2 md:gap-6 md:overflow-visible md:px-0 lg:grid-cols-4">
          {featured.map((p) => (
            <li key={p.id} className="flex w-[78%] shrink-0 snap-start min-[480px]:w-[46%] md:w-auto">
              <ProductCard product={p} className="w-full" />
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
