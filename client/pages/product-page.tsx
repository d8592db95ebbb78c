import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useParams } from 'wouter';
import type { Category, Product } from '../../common/contracts/catalog';
import { isUuid } from '../../common/domain/ids';
import { formatLineOptionsShort } from '../../common/domain/variant';
import { toast } from '../components/ui/use-toast';
import { toastAddedToCart, useAddToCart, useCart } from '../lib/cart/use-cart';
import { PRODUCTS_KEY, useCategories } from '../features/catalog/use-products';
import { DropGate } from '../features/drops/drop-gate';
import { ProductDetail, type AddToCartRequest } from '../features/product-detail/product-detail';
import { ProductDetailSkeleton } from '../features/product-detail/product-detail-skeleton';
import { useShopSettings } from '../lib/use-shop-settings';
import { NotFoundState } from '../features/static-pages/not-found-state';
import { ApiError, apiJson } from '../lib/api-client';
import { loadStorefrontContracts } from '../lib/storefront-contracts';
import { readBootstrap } from '../lib/bootstrap';
import { useDocumentTitle } from '../lib/use-document-title';
import { useProductDraw } from '../features/draws/draw-api';
import { DrawPanel, DrawResultNote } from '../features/draws/draw-panel';
import { drawOwnsPurchase } from '../features/draws/draw-view';

function useProduct(id: string) {
  const qc = useQueryClient();
  const valid = isUuid(id);
  const boot = readBootstrap().product;
  return useQuery<Product>({
    queryKey: ['/api/products', id],
    queryFn: () =>
      apiJson('GET', `/api/products/${encodeURIComponent(id)}`, undefined, () =>
        loadStorefrontContracts().then((m) => m.productSchema),
      ),
    // A malformed id cannot exist: show 'Product Not Found' without a request.
    enabled: valid,
    initialData: boot && boot.id === id ? boot : undefined,
    // Coming from a grid: paint the card's data at once while the exact product loads.
    placeholderData: () => qc.getQueryData<Product[]>(PRODUCTS_KEY)?.find((p) => p.id === id),
  });
}

function categoryLabel(slug: string, categories: Category[] | undefined): string {
  return categories?.find((c) => c.slug === slug)?.name ?? slug.replace(/(^|-)\w/g, (m) => m.toUpperCase());
}

/** /product/{id} and /products/{id} (docs/product.md §2). */
export default function ProductPage() {
  const { id = '' } = useParams<{ id: string }>();
  const product = useProduct(id);
  const categories = useCategories();
  const settings = useShopSettings();
  const cart = useCart();
  const addToCart = useAddToCart();
  const valid = isUuid(id);
  const data = product.data;
  // A product sold by draw (docs/draw.md): its panel replaces the purchase controls; any other product
  // (a 404 here) looks and behaves as before. The server-rendered page knows it from the first render; until
  // the browser's answer (a page reached from a grid) the purchase area waits: no Add to Cart for a drawn piece.
  const drawQuery = useProductDraw(id, valid);
  const draw = drawQuery.data ?? null;

  useDocumentTitle(
    !valid || product.isError
      ? `Product Not Found | ${settings.shopName}`
      : data
        ? `${data.name} | ${settings.shopName}`
        : null,
  );

  if (!valid || product.isError) {
    return (
      <NotFoundState title="Product Not Found" message="The product you're looking for doesn't exist." />
    );
  }
  if (!data) return <ProductDetailSkeleton />;

  const add = (req: AddToCartRequest) => {
    // useAddToCart opens the drawer when the cart was empty; otherwise confirm with a toast.
    const wasEmpty = (cart.data ?? []).length === 0;
    addToCart.mutate(req, {
      onSuccess: () => {
        if (!wasEmpty) {
          const options = formatLineOptionsShort(req);
          toastAddedToCart(`${data.name}${options ? ` (${options})` : ''} added to your cart.`);
        }
      },
      onError: (err) => {
        toast({
          title: 'Error',
          description:
            err instanceof ApiError
              ? err.serverMessage
              : 'Could not add this item to your cart. Please try again.',
          variant: 'destructive',
        });
      },
    });
  };

  return (
    <ProductDetail
      key={data.id}
      product={data}
      categoryName={categoryLabel(data.category, categories.data)}
      freeShippingThreshold={settings.freeShippingThreshold}
      onAddToCart={add}
      adding={addToCart.isPending}
      PurchaseGate={DropGate}
      drawPanel={
        draw && drawOwnsPurchase(draw) ? (
          <DrawPanel draw={draw} sizes={data.sizes} />
        ) : undefined
      }
      drawNote={draw?.status === 'settled' ? <DrawResultNote draw={draw} /> : undefined}
      drawPending={drawQuery.isPending}
    />
  );
}
