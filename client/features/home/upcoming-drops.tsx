import type { ComponentType } from 'react';
import type { Product } from '../../../common/contracts/catalog';
import { isReleased, upcomingDrops } from '../../../common/domain/release';
import { useNow } from '../../lib/release-clock';

/**
 * Products with a release still to come, soonest first (docs/product.md §9, Scheduled release). Shown only while there is
 * one: each leaves the strip at its release second (it is in the grid, buyable, already).
 */
export function UpcomingDrops({
  products,
  Card,
}: {
  products: readonly Product[];
  /** The catalogue's product card, supplied by the page (features do not import each other). */
  Card: ComponentType<{ product: Product; className?: string }>;
}) {
  const now = useNow(products.some((p) => !isReleased(p, Date.now())));
  const upcoming = upcomingDrops(products, now);
  if (upcoming.length === 0) return null;
  return (
    <section aria-labelledby="upcoming-title" className="mx-auto max-w-7xl px-4 pt-16 md:pt-24 md:px-6">
      <div className="mb-8 border-b border-hairline pb-4 md:mb-10">
        <p className="type-eyebrow text-muted">Set a reminder</p>
        <h2 id="upcoming-title" className="type-heading mt-2">
          Upcoming drops
        </h2>
      </div>
      <ul className="grid grid-cols-2 gap-x-4 gap-y-8 md:gap-x-6 lg:grid-cols-4">
        {upcoming.map((p) => (
          <li key={p.id} className="flex">
            <Card product={p} className="w-full" />
          </li>
        ))}
      </ul>
    </section>
  );
}
