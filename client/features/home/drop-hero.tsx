import { Link } from 'wouter';
import { ArrowRight } from 'lucide-react';
import type { Product } from '../../../common/contracts/catalog';
import { dropsAtText, heroDrop } from '../../../common/domain/drop-schedule';
import { useHydrated, useNow } from '../../lib/release-clock';
import { dropTiming } from '../../lib/use-drops';

/**
 * The drop first (top of home): 'Live now: join the line' while a drop's room is open, 'Drops Friday
 * 6:00 PM' when a release is within a day. Server-rendered from the embedded drops at the page's render
 * time (so hydration matches), one fixed-height band with no image: no layout shift, no script of its own.
 */
export function DropHero({ drops }: { drops: readonly Product[] }) {
  const now = useNow(drops.length > 0);
  const hydrated = useHydrated();
  const hero = heroDrop(drops, now, dropTiming());
  if (!hero) return null;
  const { product, kind } = hero;
  const live = kind === 'live';
  // The shopper's own time zone once in the browser; UTC in the server's render.
  const when = product.releaseAt
    ? dropsAtText(product.releaseAt, hydrated ? {} : { timeZone: 'UTC', zoneName: true })
    : '';
  return (
    <section
      aria-labelledby="drop-hero-title"
      data-testid="drop-hero"
      // The accent marks the live state and nothing else (docs/design-system.md).
      className={live ? 'bg-accent text-accent-ink' : 'border-b border-paper/15 bg-ink text-paper'}
    >
      <div className="mx-auto flex min-h-24 max-w-7xl flex-col justify-center gap-3 px-4 py-4 sm:flex-row sm:items-center sm:justify-between md:px-6">
        <div className="min-w-0">
          <p className="type-eyebrow flex items-center gap-2">
            {live ? (
              <span aria-hidden="true" className="inline-block h-2 w-2 animate-pulse rounded-full bg-ink motion-reduce:animate-none" />
            ) : null}
            {live ? 'The waiting room is open' : 'Next drop'}
          </p>
          <h2 id="drop-hero-title" className="mt-1 text-xl font-semibold leading-tight tracking-tight md:text-2xl">
            {live ? 'Live now: join the line' : <time dateTime={product.releaseAt ?? undefined}>{when}</time>}
            <span className="block truncate text-sm font-normal tracking-normal md:text-base">
              {product.name} · {product.editionSize} pieces
            </span>
          </h2>
        </div>
        <Link
          href={`/product/${product.id}`}
          className={
            'inline-flex h-11 shrink-0 items-center justify-center gap-2 px-5 text-sm font-medium focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-blue-600 ' +
            (live ? 'bg-ink text-paper hover:bg-neutral-800' : 'border border-paper/60 hover:border-paper hover:bg-paper hover:text-ink')
          }
          aria-label={live ? `Join the line for ${product.name}` : `See the drop: ${product.name}`}
        >
          {live ? 'Join the line' : 'See the drop'}
          <ArrowRight className="h-4 w-4" aria-hidden="true" />
        </Link>
      </div>
    </section>
  );
}
