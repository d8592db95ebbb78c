import { Heart } from 'lucide-react';
import { useLocation } from 'wouter';
import type { Product } from '../../common/contracts/catalog';
import { isReleased } from '../../common/domain/release';
import { toast } from './ui/use-toast';
import { ApiError } from '../lib/api-client';
import { cn } from '../lib/cn';
import { useIsSaved, useToggleWishlist } from '../lib/use-wishlist';

/**
 * The heart: a toggle whose state is aria-pressed. On the product page it is the spec's 'Wishlist' button
 * (the word stays, the heart fills); on a card, where many sit side by side, it is named 'Save to wishlist' /
 * 'Remove from wishlist'. Saving a drop that is still to come offers its Notify me (on the product page).
 */
export function WishlistButton({
  product,
  className,
  withText = false,
}: {
  product: Product;
  className?: string;
  /** Shows the word 'Wishlist' beside the heart (the product page); the card shows the heart only. */
  withText?: boolean;
}) {
  const saved = useIsSaved(product.id);
  const [, navigate] = useLocation();
  const toggle = useToggleWishlist();
  const name = saved ? 'Remove from wishlist' : 'Save to wishlist';
  const onClick = () =>
    toggle.mutate(
      { product, save: !saved },
      {
        onSuccess: (change) => {
          if (!change.saved) return;
          const upcoming = !isReleased(product, Date.now());
          toast({
            title: 'Saved to your wishlist',
            description: upcoming
              ? `${product.name} isn't out yet: get an e-mail when it drops.`
              : `${product.name} is on your wishlist.`,
            action: upcoming ? { label: 'Notify me', onClick: () => navigate(`/product/${product.id}`) } : undefined,
          });
        },
        onError: (err) =>
          toast({
            title: 'Error',
            description: err instanceof ApiError ? err.serverMessage : 'Could not update your wishlist. Please try again.',
            variant: 'destructive',
          }),
      },
    );
  return (
    <button
      type="button"
      aria-pressed={saved}
      aria-label={withText ? undefined : name}
      title={withText ? undefined : name}
      onClick={onClick}
      className={cn(
        'inline-flex items-center justify-center gap-2 focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-blue-600',
        className,
      )}
    >
      <Heart className={cn('h-5 w-5', saved && 'fill-sale text-sale')} aria-hidden="true" />
      {withText ? <span>Wishlist</span> : null}
    </button>
  );
}
