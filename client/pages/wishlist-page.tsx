import { Link } from 'wouter';
import { Breadcrumb } from '../components/breadcrumb';
import { ProductCard, ProductCardSkeleton } from '../features/catalog/product-card';
import { useHydrated } from '../lib/release-clock';
import { useWishlist } from '../lib/use-wishlist';
import { useShopSettings } from '../lib/use-shop-settings';
import { useDocumentTitle } from '../lib/use-document-title';

/** /wishlist: the pieces this shopper saved (per session, kept across visits; not rendered on the server). */
export default function WishlistPage() {
  const { shopName } = useShopSettings();
  useDocumentTitle(`Wishlist | ${shopName}`);
  const hydrated = useHydrated();
  const wishlist = useWishlist({ enabled: hydrated });
  const items = hydrated ? wishlist.data?.items : undefined;
  return (
    <div className="mx-auto max-w-7xl px-4 pb-16 md:px-6">
      <div className="pt-6">
        <Breadcrumb items={[{ label: 'Home', href: '/' }, { label: 'Wishlist' }]} />
      </div>
      <h1 className="type-display mt-6">Wishlist</h1>
      <div aria-live="polite" className="mt-4 text-base text-muted">
        {items ? (
          items.length === 0 ? (
            <p>
              Nothing saved yet. Tap the heart on any piece to keep it here.{' '}
              <Link href="/drops" className="font-semibold text-ink underline underline-offset-4">
                See the drops
              </Link>
            </p>
          ) : (
            <p>
              {items.length} {items.length === 1 ? 'piece' : 'pieces'} saved.
            </p>
          )
        ) : wishlist.isError ? (
          <p role="alert">Your wishlist could not be loaded. Please reload the page.</p>
        ) : null}
      </div>
      {items ? (
        items.length > 0 ? (
          <ul className="mt-8 grid grid-cols-2 gap-x-4 gap-y-8 lg:grid-cols-4">
            {items.map((i) => (
              <li key={i.productId} className="flex">
                <ProductCard product={i.product} className="w-full" headingLevel="h2" />
              </li>
            ))}
          </ul>
        ) : null
      ) : wishlist.isError ? null : (
        <ul className="mt-8 grid grid-cols-2 gap-x-4 gap-y-8 lg:grid-cols-4" aria-label="Loading wishlist">
          {[0, 1, 2, 3].map((i) => (
            <li key={i}>
              <ProductCardSkeleton />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
