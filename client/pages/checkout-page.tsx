import { Link } from 'wouter';
import { ShoppingBag } from 'lucide-react';
import { buttonVariants } from '../components/ui/button';
import { Skeleton } from '../components/ui/skeleton';
import { useCart } from '../lib/cart/use-cart';
import { CheckoutFlow, type CheckoutDropParts } from '../features/checkout/checkout-flow';
import { DropPassNotice, DropRefusal, useCartPasses, waitingRoomHref } from '../features/drops/pass-countdown';
import { useShopSettings } from '../lib/use-shop-settings';
import { useDocumentTitle } from '../lib/use-document-title';

/** A line's pass that has run out sends the shopper back to its waiting room ("Rejoin the line"). */
function useLapsedPassHref(lines: Parameters<CheckoutDropParts['useLapsedPassHref']>[0]): string | null {
  const lapsed = useCartPasses(lines).find((p) => Date.parse(p.expiresAt) <= Date.now());
  return lapsed ? waitingRoomHref(lapsed.productId) : null;
}

/** The checkout shows a drop's pass and refusals with the drops feature's parts. */
const dropParts: CheckoutDropParts = { PassNotice: DropPassNotice, Refusal: DropRefusal, useLapsedPassHref };

/** /checkout: shipping info, then payment (docs/product.md §2). */
export default function CheckoutPage() {
  const { shopName } = useShopSettings();
  useDocumentTitle(`Checkout | ${shopName}`);
  const { data: items, isPending } = useCart();

  return (
    <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6 sm:py-12 lg:px-8">
      <p className="type-eyebrow text-muted">Secure checkout</p>
      <h1 className="type-display-sm mt-2">Checkout</h1>
      {isPending ? (
        <div className="mt-8 grid gap-8 lg:grid-cols-[minmax(0,1fr)_420px]" role="status">
          <span className="sr-only">Loading your cart</span>
          <Skeleton className="h-96 w-full" />
          <Skeleton className="h-72 w-full" />
        </div>
      ) : !items || items.length === 0 ? (
        <div className="mt-10 flex flex-col items-center gap-4 border-t border-hairline px-6 py-16 text-center">
          <div className="flex h-20 w-20 items-center justify-center rounded-full bg-bone">
            <ShoppingBag className="h-9 w-9 text-muted" aria-hidden="true" />
          </div>
          <h2 className="type-title">Your cart is empty</h2>
          <p className="max-w-md text-muted">Add some items to your cart before proceeding to checkout.</p>
          <Link href="/" className={buttonVariants({ variant: 'primary', size: 'lg', className: 'mt-2' })}>
            Shop the Drop
          </Link>
        </div>
      ) : (
        <CheckoutFlow items={items} drops={dropParts} />
      )}
    </div>
  );
}
