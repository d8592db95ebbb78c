import type { Product } from '../../../common/contracts/catalog';
import type { ComponentType } from 'react';

/** The strip of pieces the server picked (common/domain/product-page.ts pickFeatured) from the whole catalogue. */
export function FeaturedProducts({
  featured,
  Card,
}: {
  featured: readonly Product[];
  /** The catalogue's product card, supplied by the page (features do not import each other). */
  Card: ComponentType<{ product: Product; className?: string }>;
}) {
  if (featured.length === 0) return null;
  return (
    <section aria-labelledby="featured-title" className="py-16 md:py-24">
      <div className="mx-auto max-w-7xl px-4 md:px-6">
        <div className="mb-8 flex flex-wrap items-end justify-between gap-4 border-b border-hairline pb-4 md:mb-10">
          <div>
            <p className="type-eyebrow text-muted">Staff picks</p>
            <h2 id="featured-title" className="type-heading mt-2">
              Featured
            </h2>
          </div>
          <p className="max-w-sm text-sm text-muted">
            Fresh arrivals and last-chance markdowns — numbered pieces, going fast.
          </p>
        </div>
        {/* On phones the strip scrolls sideways: the list itself takes focus so a keyboard can scroll it
            (its cards may still be waiting to hydrate). */}
        <ul
          tabIndex={0}
          aria-label="Featured products"
          className="scroll-strip -mx-4 flex snap-x snap-mandatory gap-4 overflow-x-auto px-4 pb-4 md:mx-0 md:grid md:grid-cols-2 md:gap-6 md:overflow-visible md:px-0 lg:grid-cols-4"
        >
          {featured.map((p) => (
            <li key={p.id} className="flex w-[78%] shrink-0 snap-start min-[480px]:w-[46%] md:w-auto">
              <Card product={p} className="w-full" />
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
