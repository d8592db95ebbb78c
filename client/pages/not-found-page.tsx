import { useLocation } from 'wouter';
import { useShopSettings } from '../lib/use-shop-settings';
import { NotFoundState } from '../features/static-pages/not-found-state';
import { useDocumentTitle } from '../lib/use-document-title';

/** Any path the router doesn't know (docs/product.md §2). */
export default function NotFoundPage() {
  const [location] = useLocation();
  const { shopName } = useShopSettings();
  useDocumentTitle(`Page Not Found | ${shopName}`);
  return (
    <NotFoundState
      title="Page Not Found"
      message={
        <>
          <p>The page you're looking for doesn't exist or has moved.</p>
          {/* Shoppers never see the hint: only a development build (vite dev server) shows it. */}
          {import.meta.env.DEV && (
            <p className="mx-auto mt-6 max-w-xl border border-dashed border-hairline-strong bg-bone px-4 py-3 text-left text-sm text-ink">
              <span className="font-bold">Developer hint:</span> did you forget to add the page to the router?
              Add a route for <code className="bg-paper px-1 font-mono break-all">{location}</code> in{' '}
              <code className="bg-paper px-1 font-mono">client/app/router.tsx</code>.
            </p>
          )}
        </>
      }
    />
  );
}
