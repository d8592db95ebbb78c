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
    <section aria-labelledby="shop-by-category" className="mx-auto max-w-7xl px-4 py-16 md:py-24 md:px-6">
      <div className="mb-8 flex flex-wrap items-end justify-between gap-4 border-b border-hairline pb-4 md:mb-10">
        <h2 id="shop-by-category" className="type-heading">
          Shop by Category
        </h2>
        <p className="max-w-sm text-sm text-muted">Three lines. Fifty pieces each. Pick your lane.</p>
      </div>
      {isLoading ? (
        <div role="status" className="grid gap-6 md:grid-cols-3">
          <span className="sr-only">Loading categories…</span>
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} className="aspect-[16/10] w-full" />
          ))}
        </div>
      ) : (
        <ul className="grid gap-6 md:grid-cols-3">
          {categories.map((c) => (
            <li key={c.id}>
              <Link href={`/category/${c.slug}`} className="group flex flex-col gap-4">
                {/* The art's own 16:10, so a word drawn into it is never cut off. */}
                <span className="relative block aspect-[16/10] overflow-hidden bg-bone">
                  {c.image ? (
                    <ProductImage
                      src={c.image}
                      alt=""
                      width={1600}
                      height={1000}
                      sizes="(min-width: 768px) 33vw, 100vw"
                      className="absolute inset-0 h-full w-full object-cover transition-transform duration-700 group-hover:scale-[1.03] motion-reduce:transition-none"
                    />
                  ) : null}
                </span>
                <span className="flex items-start justify-between gap-4">
                  <span>
                    {CATEGORY_TAGS[c.slug] ? (
                      <span className="type-eyebrow block text-muted">{CATEGORY_TAGS[c.slug]}</span>
                    ) : null}
                    <span className="mt-1 block text-lg font-semibold leading-tight underline-offset-4 group-hover:underline">
                      {c.name}
                    </span>
                    <span className="mt-1 line-clamp-2 block text-sm text-muted">{c.description}</span>
                  </span>
                  <ArrowUpRight
                    className="mt-5 h-5 w-5 shrink-0 transition-transform group-hover:-translate-y-0.5 group-hover:translate-x-0.5"
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
