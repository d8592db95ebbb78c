import { Link } from 'wouter';
import type { CartItem } from '../../../common/contracts/cart';
import { Button } from '../../components/ui/button';
import { ApiError } from '../api-client';
import { linesNamedIn } from '../size-stock';
import { useRemoveCartItem } from './use-cart';

/**
 * The way forward from a refusal that names a sold-out size (ADR 015: each size sells out on its own):
 * under the server's message, each line it names gets 'Choose another size' (the product page, where
 * the sizes left are shown) and 'Remove from cart'. Only for a stock refusal (409) naming a line with a
 * size; otherwise nothing (the message alone, with its own way forward).
 */
export function SoldOutSizeWayForward({
  error,
  lines,
  onChooseSize,
  className,
}: {
  error: unknown;
  lines: readonly CartItem[];
  /** Called when the shopper leaves for the product page (the cart drawer closes). */
  onChooseSize?: () => void;
  className?: string;
}) {
  const remove = useRemoveCartItem();
  if (!(error instanceof ApiError) || error.status !== 409) return null;
  const named = linesNamedIn(error.serverMessage, lines).filter((l) => l.selectedSize !== null);
  if (named.length === 0) return null;
  return (
    <ul className={className} aria-label="Sold-out sizes in your cart">
      {named.map((line) => (
        <li key={line.id} className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm">
          {named.length > 1 && (
            <span className="font-semibold">
              {line.product.name}, {line.selectedSize}:
            </span>
          )}
          <Link
            href={`/product/${line.productId}`}
            onClick={onChooseSize}
            aria-label={`Choose another size of ${line.product.name}`}
            className="inline-flex min-h-11 items-center font-semibold underline underline-offset-2 hover:no-underline focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-blue-600"
          >
            Choose another size
          </Link>
          <Button
            type="button"
            variant="link"
            size="sm"
            className="min-h-11 px-0 text-sm"
            aria-label={`Remove from cart: ${line.product.name}, size ${line.selectedSize}`}
            disabled={remove.isPending}
            onClick={() => remove.mutate(line.id)}
          >
            Remove from cart
          </Button>
        </li>
      ))}
    </ul>
  );
}
