import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Category, DrawSale, Product, ProductPage } from '../../../common/contracts/catalog';
import { gridSearch, type GridQuery } from '../../../common/domain/product-page';
import { apiJson } from '../../lib/api-client';
import { readBootstrap } from '../../lib/bootstrap';

export const PRODUCTS_KEY = ['/api/products'] as const;
export const CATEGORIES_KEY = ['/api/categories'] as const;

/** All products (docs/product.md §7: category filtering happens in the browser); first render uses the embedded list. */
export function useProducts(opts: { enabled?: boolean } = {}) {
  return useQuery<Product[]>({
    queryKey: PRODUCTS_KEY,
    initialData: readBootstrap().products,
    enabled: opts.enabled,
  });
}

/** Category list (slug, name, description, image); embedded in the HTML when the server has it. */
export function useCategories() {
  return useQuery<Category[]>({ queryKey: CATEGORIES_KEY, initialData: readBootstrap().categories });
}

/** One category's products: the category page embeds exactly these. */
export function useCategoryProducts(slug: string) {
  const boot = readBootstrap().categoryProducts;
  return useQuery<Product[]>({
    queryKey: ['/api/products', 'category', slug],
    queryFn: () => apiJson<Product[]>('GET', `/api/products?category=${encodeURIComponent(slug)}`),
    initialData: boot?.slug === slug ? boot.products : undefined,
  });
}

const samePage = (page: ProductPage, q: GridQuery) =>
  page.category === q.category && (page.page === q.page || (q.page > page.pageCount && page.page === page.pageCount));

/**
 * One page of the home grid. While another page or filter loads, the previous one stays on screen
 * (narrowed to the new filter, so a filter click shows at once what it will keep).
 */
export function useProductPage(q: GridQuery) {
  const boot = readBootstrap().home?.grid;
  const search = gridSearch(q);
  return useQuery<ProductPage>({
    queryKey: ['/api/products', 'page', q.category, q.page],
    queryFn: () => apiJson<ProductPage>('GET', `/api/products/page${search ? `?${search}` : ''}`),
    initialData: boot && samePage(boot, q) ? boot : undefined,
    placeholderData: (previous) =>
      previous && q.category && previous.category !== q.category
        ? { ...previous, category: q.category, products: previous.products.filter((p) => p.category === q.category) }
        : keepPreviousData(previous),
  });
}

/** The home page's featured strip (picked on the server from the whole catalogue). */
export function useFeaturedProducts() {
  return useQuery<Product[]>({
    queryKey: ['/api/products', 'featured'],
    queryFn: () => apiJson<Product[]>('GET', '/api/products/featured'),
    initialData: readBootstrap().home?.featured,
  });
}

/** Products whose release is still to come (the home page's 'Upcoming drops'); embedded on the home page. */
export function useUpcomingDrops() {
  const home = readBootstrap().home;
  return useQuery<Product[]>({
    queryKey: ['/api/products', 'upcoming'],
    queryFn: () => apiJson<Product[]>('GET', '/api/products/upcoming'),
    // The server leaves the list out when there is none.
    initialData: home ? (home.upcoming ?? []) : undefined,
  });
}

export const DRAW_SALES_KEY = ['/api/products', 'draws'] as const;

/**
 * The products sold by draw right now (docs/draw.md): their cards lead to the draw instead of an Add to Cart
 * the server would refuse. Embedded in server-rendered pages with cards; asked again when a grid mounts more
 * than a few seconds after it was read (the server reads it at most every 5 s too). The server's answer
 * decides; the browser's clock only says which part of a draw's window the shopper is in.
 */
export function useDrawSales() {
  const boot = readBootstrap();
  return useQuery<DrawSale[]>({
    queryKey: DRAW_SALES_KEY,
    initialData: boot.drawSales,
    initialDataUpdatedAt: boot.drawSales ? boot.now : undefined,
    staleTime: 5_000,
  });
}
