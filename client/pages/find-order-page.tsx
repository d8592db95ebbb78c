import { Link } from 'wouter';
import { Breadcrumb } from '../components/breadcrumb';
import { FindOrderForm } from '../features/orders/find-order-form';
import { useDocumentTitle } from '../lib/use-document-title';
import { useShopSettings } from '../lib/use-shop-settings';

/** /orders: "Find my order" (docs/product.md §2.13): the order page's link by e-mail, no account needed. */
export default function FindOrderPage() {
  const { shopName } = useShopSettings();
  useDocumentTitle(`Find my order | ${shopName}`);
  return (
    <div className="mx-auto max-w-3xl px-4 py-8 md:px-6 md:py-12">
      <Breadcrumb items={[{ label: 'Home', href: '/' }, { label: 'Find my order' }]} className="mb-6" />
      <h1 className="type-display-sm">Your order</h1>
      <p className="mt-3 max-w-xl text-muted">
        Every order has its own page: its status, your numbered pieces, delivery and tracking. The link is in every e-mail
        we send about it; lost it? We'll send it again.
      </p>
      <div className="mt-8">
        <FindOrderForm />
      </div>
      <p className="mt-6 text-sm">
        <Link href="/" className="font-semibold underline underline-offset-2 hover:no-underline">
          Continue Shopping
        </Link>
      </p>
    </div>
  );
}
