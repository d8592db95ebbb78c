import { useQuery } from '@tanstack/react-query';
import type { Category, Product } from '../../../common/contracts/catalog';
import { readBootstrap } from '../../lib/bootstrap';

export const PRODUCTS_KEY = ['/api/products'] as const;
export const CATEGORIES_KEY = ['/api/categories'] as const;

/** All products (SPEC §7: category filtering happens in the browser); first render uses the embedded list. */
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
