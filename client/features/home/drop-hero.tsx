import { Link } from 'wouter';
import { ArrowRight } from 'lucide-react';
import type { Product } from '../../../common/contracts/catalog';
import { dropsAtText, heroDrop } from '../../../common/domain/drop-schedule';
import { formatReleaseUtc } from '../../../common/domain/release';
import { useHydrated, useNow } from '../../lib/release-clock';
import { dropTiming } from '../../lib/use-drops';

/**
 * The drop first (top of home): 'Live now: join the line' while a drop's room is open, 'Drops Friday
 * 18:00' when a release is within a day. Server-rendered from the embedded drops at the page's render
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
    ? hydrated
      ? dropsAtText(product.releaseAt)
      : `Drops ${formatReleaseUtc(product.releaseAt)}`
    : '';
  return (
    <section
      aria-labelledby="drop-hero-title"
      data-testid="drop-hero"
      className={live ? 'bg-accent text-ink' : 'bg-ink text-paper'}
    >
      <div className="mx-auto flex min-h-24 max-w-7xl flex-col justify-center gap-3 px-4 py-4 sm:flex-row sm:items-center sm:justify-between md:px-6">
        <div className="min-w-0">
          <p className="flex items-center gap-2 text-xs font-bold uppercase tracking-[0.25em]">
            {live ? (
              <span aria-hidden="true" className="inline-block h-2.5 w-2.5 animate-pulse rounded-full bg-sale motion-reduce:animate-none" />
            ) : null}
            {live ? 'The waiting room is open' : 'Next drop'}
          </p>
          <h2 id="drop-hero-title" className="mt-1 font-display text-2xl uppercase leading-tight md:text-3xl">
            {live ? 'Live now: join the line' : <time dateTime={product.releaseAt ?? undefined}>{when}</time>}
            <span className="block truncate text-base font-sans font-semibold normal-case tracking-normal md:text-lg">
              {product.name} · {product.editionSize} pieces
            </span>
          </h2>
        </div>
        <Link
          href={`/product/${product.id}`}
          className={
            'inline-flex h-12 shrink-0 items-center justify-center gap-2 border-2 px-5 text-sm font-bold uppercase tracking-widest focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-blue-600 ' +
            (live ? 'border-ink bg-ink text-paper hover:bg-paper hover:text-ink' : 'border-paper hover:bg-paper hover:text-ink')
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
