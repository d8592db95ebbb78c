import { useEffect, useRef } from 'react';
import { Link, useParams, useSearch } from 'wouter';
import { PackageSearch } from 'lucide-react';
import { Breadcrumb } from '../components/breadcrumb';
import { Skeleton } from '../components/ui/skeleton';
import { FindOrderForm } from '../features/orders/find-order-form';
import { OrderChanges } from '../features/orders/order-changes';
import { OrderDetails } from '../features/orders/order-details';
import { OrderReturns } from '../features/orders/order-returns';
import { useOrderView } from '../features/orders/orders-api';
import { SupportEmailLink } from '../features/static-pages/support-email-link';
import { useDocumentTitle } from '../lib/use-document-title';
import { useShopSettings } from '../lib/use-shop-settings';

/**
 * /orders/:orderNumber?key=… (docs/product.md §2.13): the buyer's order, opened by the signed link of the
 * order mails and the success page. Without a good key it offers "Find my order" for that number.
 */
export default function OrderPage() {
  const { orderNumber = '' } = useParams<{ orderNumber: string }>();
  const key = new URLSearchParams(useSearch()).get('key');
  const { shopName } = useShopSettings();
  const order = useOrderView(orderNumber, key);
  const loading = !!key && order.isPending;
  const found = order.data ?? null;
  useDocumentTitle(loading ? null : found ? `Order ${found.orderNumber} | ${shopName}` : `Find my order | ${shopName}`);

  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (!loading && !found) headingRef.current?.focus();
  }, [loading, found]);

  return (
    <div className="mx-auto max-w-4xl px-4 py-8 md:px-6 md:py-12">
      <Breadcrumb items={[{ label: 'Home', href: '/' }, { label: 'Your order' }]} className="mb-6" />
      {loading ? (
        <div role="status" className="space-y-6">
          <span className="sr-only">Loading your order</span>
          <Skeleton className="h-32 w-full" />
          <Skeleton className="h-24 w-full" />
          <Skeleton className="h-64 w-full" />
        </div>
      ) : found ? (
        <>
          <OrderDetails order={found} />
          {key && (
            <div className="mt-6">
              <OrderChanges order={found} orderKey={key} />
            </div>
          )}
          {key && <OrderReturns orderNumber={found.orderNumber} orderKey={key} />}
          <section aria-labelledby="order-help-heading" className="mt-10 border-t border-hairline pt-6 text-sm">
            <h2 id="order-help-heading" className="type-title">
              Need help with this order?
            </h2>
            <p className="mt-2">
              E-mail us at <SupportEmailLink /> with your order number; we reply within 24 hours. Keep this page's link:
              it is how you get back to your order.
            </p>
          </section>
        </>
      ) : (
        <div className="space-y-6">
          <div className="flex items-start gap-4">
            <div className="flex h-14 w-14 shrink-0 items-center justify-center rounded-full bg-bone">
              <PackageSearch className="h-7 w-7" aria-hidden="true" />
            </div>
            <div>
              <h1 ref={headingRef} tabIndex={-1} className="type-display-sm focus:outline-none">
                {order.isError ? 'We could not load this order' : "This link doesn't open an order"}
              </h1>
              <p className="mt-3 text-muted">
                {order.isError
                  ? 'Please try again in a moment, or have the link e-mailed to you again below.'
                  : 'The link may be incomplete. Ask for it again below and we will e-mail it to the address you ordered with.'}
              </p>
            </div>
          </div>
          <FindOrderForm initialOrderNumber={orderNumber} />
          <p className="text-sm">
            <Link href="/" className="font-semibold underline underline-offset-2 hover:no-underline">
              Continue Shopping
            </Link>
          </p>
        </div>
      )}
    </div>
  );
}
