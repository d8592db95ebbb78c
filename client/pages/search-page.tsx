import { useQuery } from '@tanstack/react-query';
import { Search } from 'lucide-react';
import { Link, useSearch } from 'wouter';
import type { Product } from '../../common/contracts/catalog';
import { Breadcrumb } from '../components/breadcrumb';
import { buttonVariants } from '../components/ui/button';
import { ProductGrid } from '../features/catalog/product-grid';
import { useCategories } from '../features/catalog/use-products';
import { useShopSettings } from '../lib/use-shop-settings';
import { apiJson } from '../lib/api-client';
import { readBootstrap } from '../lib/bootstrap';
import { useDocumentTitle } from '../lib/use-document-title';

function useSearchResults(q: string) {
  const boot = readBootstrap().search;
  return useQuery<Product[]>({
    queryKey: ['/api/products', 'search', q],
    initialData: boot && boot.q === q ? boot.results : undefined,
    // The server ranks the matches; the order it sends is the order shown.
    queryFn: () => apiJson<Product[]>('GET', `/api/products?q=${encodeURIComponent(q)}`),
    enabled: q !== '',
  });
}

function CategoryLinks() {
  const categories = useCategories();
  const list = categories.data ?? [];
  if (list.length === 0) return null;
  return (
    <ul className="mt-5 flex flex-wrap gap-3">
      {list.map((c) => (
        <li key={c.slug}>
          <Link href={`/category/${c.slug}`} className={buttonVariants({ variant: 'outline' })}>
            {c.name}
          </Link>
        </li>
      ))}
    </ul>
  );
}

/** /search?q= (docs/product.md §2): result count, grid, and a helpful empty state. */
export default function SearchPage() {
  const params = new URLSearchParams(useSearch());
  const q = (params.get('q') ?? '').trim();
  const results = useSearchResults(q);
  const { shopName } = useShopSettings();
  useDocumentTitle(q ? `Search: ${q} | ${shopName}` : `Search | ${shopName}`);

  const count = results.data?.length;
  const status =
    q === ''
      ? ''
      : results.isError
        ? 'Search failed. Please try again.'
        : count === undefined
          ? `Searching for “${q}”…`
          : `${count} ${count === 1 ? 'result' : 'results'} for “${q}”`;

  return (
    <div>
      <div className="mx-auto max-w-7xl px-4 pt-6 pb-4 sm:px-6 lg:px-8">
        <Breadcrumb items={[{ label: 'Home', href: '/' }, { label: 'Search' }]} />
      </div>
      <div className="border-b border-hairline">
        <div className="mx-auto max-w-7xl px-4 py-12 sm:px-6 sm:py-16 lg:px-8">
          <p className="type-eyebrow text-muted">Search the archive</p>
          <h1 className="type-display mt-3 break-words">
            {q ? <>“{q}”</> : 'Search'}
          </h1>
          <p
            role="status"
            aria-live="polite"
            aria-atomic="true"
            className="mt-5 text-base text-muted sm:text-lg"
          >
            {status}
          </p>
        </div>
      </div>

      <div className="mx-auto max-w-7xl px-4 py-10 sm:px-6 sm:py-14 lg:px-8">
        {q === '' ? (
          <section aria-labelledby="search-prompt" className="max-w-3xl">
            <Search className="h-8 w-8" aria-hidden="true" />
            <h2 id="search-prompt" className="type-heading mt-4">
              What are you looking for?
            </h2>
            <p className="mt-3 max-w-2xl text-muted">
              Type a product name, a material or a colour into the search box at the top of the page — or
              start from a category:
            </p>
            <CategoryLinks />
          </section>
        ) : count === 0 || results.isError ? (
          <section aria-labelledby="no-results" className="max-w-3xl">
            <h2 id="no-results" className="type-heading">
              Nothing matched your search
            </h2>
            <ul className="mt-4 list-disc space-y-1 pl-5 text-muted">
              <li>Check the spelling, or try fewer or more general words — “hoodie”, “tee”, “cap”.</li>
              <li>Search by material or colour, like “organic cotton” or “black”.</li>
              <li>Every design is limited to 50 pieces, so a sold-out drop may be gone for good.</li>
            </ul>
            <p className="mt-6 font-semibold">Browse a category instead:</p>
            <CategoryLinks />
            <Link href="/" className={buttonVariants({ variant: 'link', className: 'mt-6 px-0' })}>
              Back to the latest drops
            </Link>
          </section>
        ) : (
          <ProductGrid
            products={results.data ?? []}
            isLoading={results.isLoading}
            showViewAll={false}
            priorityCount={2}
          />
        )}
      </div>
    </div>
  );
}
