import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'wouter';
import { ArrowRight, Check, PackageSearch } from 'lucide-react';
import { buttonVariants } from '../components/ui/button';
import { Skeleton } from '../components/ui/skeleton';
import { CART_KEY } from '../lib/cart/use-cart';
import { OrderConfirmation } from '../features/checkout/order-confirmation';
import { useLatestOrderWithLink } from '../features/orders/orders-api';
import { formatShopDate } from '../../common/domain/ship-by';
import { useShopSettings } from '../lib/use-shop-settings';
import { apiRequest } from '../lib/api-client';
import { useDocumentTitle } from '../lib/use-document-title';

/**
 * /order-success (docs/product.md §2): confirmation with edition numbers and the link to the order's own page
 * (§2.13); the cart is emptied on load.
 */
export default function OrderSuccessPage() {
  const { shopName } = useShopSettings();
  const qc = useQueryClient();
  const order = useLatestOrderWithLink();
  const noOrder = !order.isPending && !order.data;
  useDocumentTitle(
    order.isPending ? null : noOrder ? `No recent order | ${shopName}` : `Order Confirmed | ${shopName}`,
  );
  const headingRef = useRef<HTMLHeadingElement>(null);

  const cleared = useRef(false);
  useEffect(() => {
    // Only a confirmed order empties the cart: a stray visit must not throw away what the shopper chose.
    if (cleared.current || !order.data) return;
    cleared.current = true;
    // The server already empties the cart when it makes the order; this covers any leftovers.
    apiRequest('DELETE', '/api/cart')
      .catch(() => undefined)
      .finally(() => void qc.invalidateQueries({ queryKey: CART_KEY }));
  }, [qc, order.data]);

  // Keyboard and screen-reader users land on what the page says, once it knows.
  useEffect(() => {
    if (!order.isPending) headingRef.current?.focus();
  }, [order.isPending]);

  if (order.isPending) {
    return (
      <div className="mx-auto max-w-3xl px-4 py-12 sm:py-16" role="status">
        <span className="sr-only">Loading your order</span>
        <Skeleton className="mx-auto h-20 w-20 rounded-full" />
        <Skeleton className="mt-6 h-14 w-full" />
        <Skeleton className="mt-10 h-64 w-full" />
      </div>
    );
  }

  if (noOrder) {
    return (
      <div className="mx-auto max-w-3xl px-4 py-12 text-center sm:py-16">
        <div className="mx-auto flex h-16 w-16 items-center justify-center rounded-full border border-hairline-strong">
          <PackageSearch className="h-7 w-7" strokeWidth={1.5} aria-hidden="true" />
        </div>
        <h1
          ref={headingRef}
          tabIndex={-1}
          className="type-display-sm mt-6 focus:outline-none"
        >
          No recent order
        </h1>
        <p className="mx-auto mt-4 max-w-xl text-muted">
          We couldn't find an order placed from this browser. If you have just paid, check your e-mail for the
          confirmation; your cart is still waiting for you.
        </p>
        <div className="mt-10 flex flex-col justify-center gap-3 sm:flex-row">
          <Link href="/" className={buttonVariants({ size: 'lg' })}>
            Continue Shopping
          </Link>
          <Link href="/checkout" className={buttonVariants({ variant: 'outline', size: 'lg' })}>
            Go to Checkout
          </Link>
        </div>
      </div>
    );
  }

  return (
    <div className="mx-auto max-w-3xl px-4 py-12 text-center sm:py-16">
      <div className="mx-auto flex h-16 w-16 items-center justify-center rounded-full bg-success text-white">
        <Check className="h-8 w-8" strokeWidth={2.5} aria-hidden="true" />
      </div>
      <h1
        ref={headingRef}
        tabIndex={-1}
        className="type-display-sm mt-6 focus:outline-none"
      >
        Payment Successful!
      </h1>
      <p className="mx-auto mt-4 max-w-xl text-muted">
        Thank you for your order
        {order.data ? `, ${order.data.customerFirstName}` : ''}. Your limited-edition pieces are now yours —
        numbered and never reproduced.
      </p>

      <div className="mt-10">{order.data ? <OrderConfirmation order={order.data} /> : null}</div>

      {order.data && (
        <div className="mt-6 flex flex-col items-center gap-2">
          <a href={order.data.orderPath} className={buttonVariants({ size: 'lg' })}>
            View your order
            <ArrowRight className="ml-2 h-4 w-4" aria-hidden="true" />
          </a>
          <p className="text-sm text-muted">Status, tracking and a certificate for every piece. The link is in your e-mail too.</p>
        </div>
      )}

      <section
        aria-labelledby="whats-next-heading"
        className="mt-10 border-t border-hairline pt-6 text-left"
      >
        <h2 id="whats-next-heading" className="type-title">
          What's Next?
        </h2>
        <ul className="mt-3 list-disc space-y-1.5 pl-5 text-sm">
          <li>
            A confirmation e-mail is on its way{order.data ? ` to ${order.data.customerEmail}` : ''} with your
            order number and edition numbers.
          </li>
          <li>
            Every piece is made to order:{' '}
            {order.data?.shipBy ? (
              <>
                it ships by <strong>{formatShopDate(order.data.shipBy)}</strong>.
              </>
            ) : (
              'limited drops ship within 2-3 business days.'
            )}
          </li>
          <li>You'll receive a tracking number by e-mail as soon as your order ships.</li>
        </ul>
      </section>

      <div className="mt-10 flex flex-col justify-center gap-3 sm:flex-row">
        <Link href="/" className={buttonVariants({ size: 'lg' })}>
          Continue Shopping
        </Link>
        <Link href="/categories/tshirts" className={buttonVariants({ variant: 'outline', size: 'lg' })}>
          View T-Shirts
        </Link>
      </div>
    </div>
  );
}
