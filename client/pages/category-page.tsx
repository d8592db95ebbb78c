import { useQuery } from '@tanstack/react-query';
import { useParams } from 'wouter';
import type { Category } from '../../common/contracts/catalog';
import { Breadcrumb } from '../components/breadcrumb';
import { Skeleton } from '../components/ui/skeleton';
import { ProductGrid } from '../features/catalog/product-grid';
import { useCategories, useCategoryProducts } from '../features/catalog/use-products';
import { useShopSettings } from '../lib/use-shop-settings';
import { NotFoundState } from '../features/static-pages/not-found-state';
import { useDocumentTitle } from '../lib/use-document-title';

function useCategory(slug: string) {
  const list = useCategories();
  const fromList = list.data?.find((c) => c.slug === slug);
  return useQuery<Category>({
    queryKey: ['/api/categories', slug],
    // The embedded category list usually has it already: no request, no skeleton.
    initialData: fromList,
    enabled: !fromList && !list.isLoading,
  });
}

function CategoryHeaderSkeleton() {
  return (
    <div role="status" aria-label="Loading category">
      <div className="mx-auto max-w-7xl px-4 pt-6 pb-4 sm:px-6 lg:px-8">
        <Skeleton className="h-4 w-40" />
      </div>
      <div className="border-b border-hairline">
        <div className="mx-auto max-w-7xl px-4 py-14 sm:px-6 sm:py-20 lg:px-8">
          <Skeleton className="h-16 w-2/3" />
          <Skeleton className="mt-6 h-5 w-1/2" />
        </div>
      </div>
    </div>
  );
}

/** /category/{slug}: name, description and the grid locked to the slug (docs/product.md §2). */
export default function CategoryPage() {
  const { slug = '' } = useParams<{ slug: string }>();
  const category = useCategory(slug);
  const products = useCategoryProducts(slug);
  const { shopName } = useShopSettings();
  const data = category.data;
  const count = products.data?.length;

  useDocumentTitle(
    category.isError ? `Category Not Found | ${shopName}` : data ? `${data.name} | ${shopName}` : null,
  );

  if (category.isError) {
    return (
      <NotFoundState title="Category Not Found" message="The category you're looking for doesn't exist." />
    );
  }

  return (
    <div>
      {data ? (
        <>
          <div className="mx-auto max-w-7xl px-4 pt-6 pb-4 sm:px-6 lg:px-8">
            <Breadcrumb items={[{ label: 'Home', href: '/' }, { label: data.name }]} />
          </div>
          <div className="border-b border-hairline">
            <div className="mx-auto flex max-w-7xl flex-col gap-6 px-4 py-12 sm:px-6 sm:py-16 md:flex-row md:items-end md:justify-between lg:px-8">
              <div>
                <p className="type-eyebrow text-muted">
                  Limited edition · 50 pieces per design
                </p>
                <h1 className="type-display mt-3">
                  {data.name}
                </h1>
                <p className="mt-5 max-w-2xl text-base leading-relaxed text-muted sm:text-lg">
                  {data.description}
                </p>
              </div>
              {count !== undefined && (
                <p className="type-mono shrink-0 text-sm text-muted">
                  {count} {count === 1 ? 'design' : 'designs'}
                </p>
              )}
            </div>
          </div>
        </>
      ) : (
        <CategoryHeaderSkeleton />
      )}
      <div className="mx-auto max-w-7xl px-4 py-10 sm:px-6 sm:py-14 lg:px-8">
        <ProductGrid
          lockedCategory={slug}
          products={products.data}
          isLoading={!data || products.isLoading}
          priorityCount={2}
        />
      </div>
    </div>
  );
}
