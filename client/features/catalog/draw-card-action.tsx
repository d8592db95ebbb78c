import { Link } from 'wouter';
import { ArrowRight } from 'lucide-react';
import type { DrawSale } from '../../../common/contracts/catalog';
import { drawPhase } from '../../../common/domain/draw-lifecycle';
import { ReleaseTime } from '../../components/drop-countdown';
import { buttonVariants } from '../../components/ui/button';
import { cn } from '../../lib/cn';
import { useNow } from '../../lib/release-clock';

/**
 * Where a draw that owns its product's sale stands for a shopper, as the card says it: the one rule of the
 * product page's panel (drawPhase, common/domain/draw-lifecycle.ts) for the statuses that own the sale.
 */
export type DrawCardPhase = 'upcoming' | 'open' | 'closed' | 'drawn';

export function drawCardPhase(sale: Pick<DrawSale, 'status' | 'opensAt' | 'closesAt'>, nowMs: number): DrawCardPhase {
  const phase = drawPhase(sale, nowMs);
  return phase === 'result' ? 'drawn' : phase === 'cancelled' ? 'closed' : phase;
}

/**
 * A product card's action for a piece sold by draw (docs/draw.md): a link to its page, where the draw's
 * panel is, in place of the Add to Cart the server would refuse, as a live drop's card says 'Join the line'.
 */
export function DrawCardAction({
  sale,
  productId,
  describedBy,
}: {
  sale: DrawSale;
  productId: string;
  /** The card's name: the link reads 'Enter the draw', described by the product it is for. */
  describedBy: string;
}) {
  // The clock ticks only while the window may still open or close.
  const now = useNow(sale.status === 'scheduled' || sale.status === 'open' ? true : null);
  const phase = drawCardPhase(sale, now);
  const note =
    phase === 'upcoming' ? (
      <>
        Draw opens <ReleaseTime releaseAt={sale.opensAt} />
      </>
    ) : phase === 'open' ? (
      'Sold by draw'
    ) : phase === 'closed' ? (
      'Entries closed'
    ) : (
      'Drawn'
    );
  return (
    <div data-testid="card-draw">
      <p className="mb-1.5 text-xs text-muted">{note}</p>
      <Link
        href={`/product/${productId}`}
        aria-describedby={describedBy}
        className={cn(buttonVariants({ variant: phase === 'open' ? 'primary' : 'secondary', size: 'sm' }), 'px-3')}
      >
        {phase === 'open' ? 'Enter the draw' : phase === 'drawn' ? 'See the result' : 'See the draw'}
        <ArrowRight className="h-4 w-4" aria-hidden="true" />
      </Link>
    </div>
  );
}
