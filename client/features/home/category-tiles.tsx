import { Link } from 'wouter';
import { ArrowUpRight } from 'lucide-react';
import type { Category } from '../../../common/contracts/catalog';
import { ProductImage } from '../../components/product-image';
import { Skeleton } from '../../components/ui/skeleton';

/** docs/product.md §2 tile tags per category slug. */
export const CATEGORY_TAGS: Record<string, string> = {
  tshirts: 'Limited Edition',
  hoodies: 'Premium Quality',
  accessories: 'Exclusive Items',
};
const ORDER = ['tshirts', 'hoodies', 'accessories'];

export function sortCategories(list: readonly Category[]): Category[] {
  const rank = (slug: string) => (ORDER.includes(slug) ? ORDER.indexOf(slug) : ORDER.length);
  return [...list].sort((a, b) => rank(a.slug) - rank(b.slug) || a.name.localeCompare(b.name));
}

/** The categories come from the page (the catalogue's query): features do not import each other. */
export function CategoryTiles({ categories: data, isLoading }: { categories: readonly Category[] | undefined; isLoading: boolean }) {
  const categories = sortCategories(data ?? []);

  return (
    <section aria-labelledby="shop-by-category" className="mx-auto max-w-7xl px-4 py-16 md:px-6 md:py-24">
      <div className="mb-8 flex flex-wrap items-end justify-between gap-4 md:mb-12">
        <h2 id="shop-by-category" className="font-display text-5xl uppercase leading-none md:text-7xl">
          Shop by Category
        </h2>
        <p className="max-w-sm text-muted">Three lines. Fifty pieces each. Pick your lane.</p>
      </div>
      {isLoading ? (
        <div role="status" className="grid gap-4 md:grid-cols-3 md:gap-6">
          <span className="sr-only">Loading categories…</span>
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} className="aspect-[4/5] w-full" />
          ))}
        </div>
      ) : (
        <ul className="grid gap-4 md:grid-cols-3 md:gap-6">
          {categories.map((c) => (
            <li key={c.id}>
              <Link
                href={`/category/${c.slug}`}
                className="group relative flex aspect-[4/3] flex-col justify-end overflow-hidden bg-ink text-paper md:aspect-[4/5]"
              >
                {c.image ? (
                  <ProductImage
                    src={c.image}
                    alt=""
                    width={1600}
                    height={1000}
                    sizes="(min-width: 768px) 33vw, 100vw"
                    className="absolute inset-0 h-full w-full object-cover opacity-90 transition-transform duration-700 group-hover:scale-105 motion-reduce:transition-none"
                  />
                ) : null}
                <span
                  aria-hidden="true"
                  className="absolute inset-0 bg-gradient-to-t from-black/85 via-black/30 to-transparent"
                />
                {CATEGORY_TAGS[c.slug] ? (
                  <span className="absolute left-4 top-4 bg-accent px-2.5 py-1 text-xs font-bold uppercase tracking-widest text-ink">
                    {CATEGORY_TAGS[c.slug]}
                  </span>
                ) : null}
                <span className="relative flex items-end justify-between gap-4 p-5 md:p-6">
                  <span>
                    <span className="block font-display text-4xl uppercase leading-none md:text-5xl">
                      {c.name}
                    </span>
                    <span className="mt-2 line-clamp-2 block text-sm text-neutral-200">{c.description}</span>
                  </span>
                  <ArrowUpRight
                    className="h-8 w-8 shrink-0 transition-transform group-hover:-translate-y-1 group-hover:translate-x-1"
                    aria-hidden="true"
                  />
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
