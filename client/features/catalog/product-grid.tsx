import { useEffect, useId, useRef, useState, type ReactNode, type RefObject } from 'react';
import type { Product } from '../../../common/contracts/catalog';
import { Button } from '../../components/ui/button';
import { cn } from '../../lib/cn';
import { ProductCard, ProductCardSkeleton } from './product-card';
import { useProducts } from './use-products';

export const GRID_FILTERS = [
  { value: 'all', label: 'All' },
  { value: 'tshirts', label: 'T-Shirts' },
  { value: 'hoodies', label: 'Hoodies' },
  { value: 'accessories', label: 'Accessories' },
] as const;

const SKELETON_CARDS = 8;
/** Air between cards rather than boxes around them: more below a card than beside it. */
const GRID = 'grid grid-cols-2 gap-x-3 gap-y-8 sm:gap-x-4 md:gap-x-6 md:gap-y-12 lg:grid-cols-4';

export interface ProductGridProps {
  /** Products to show; when omitted the grid reads the full catalogue itself. */
  products?: Product[];
  isLoading?: boolean;
  /** Category slug: the filter starts on it, follows it, and no filter buttons are shown. */
  lockedCategory?: string;
  title?: string;
  subtitle?: string;
  showViewAll?: boolean;
  id?: string;
  /** How many leading cards load their image eagerly (the LCP on category pages). */
  priorityCount?: number;
  className?: string;
  /** Controlled filter (the home page keeps it in the URL): the active value and what a click asks for. */
  filter?: string;
  onFilterChange?: (value: string) => void;
  /** Under the cards, above View All Products (the home page's page links). */
  footer?: ReactNode;
  sectionRef?: RefObject<HTMLElement | null>;
}

export function ProductGrid({
  products,
  isLoading,
  lockedCategory,
  title,
  subtitle,
  showViewAll,
  id,
  priorityCount = 0,
  className,
  filter: controlledFilter,
  onFilterChange,
  footer,
  sectionRef: outerRef,
}: ProductGridProps) {
  // Only fetch the whole catalogue when the caller neither hands the products in nor loads them itself.
  const query = useProducts({ enabled: products === undefined && isLoading === undefined });
  const list = products ?? query.data ?? [];
  const loading = isLoading ?? (products === undefined && query.isLoading);
  const [ownFilter, setOwnFilter] = useState<string>(lockedCategory ?? 'all');
  const filter = controlledFilter ?? ownFilter;
  const setFilter = onFilterChange ?? setOwnFilter;
  const headingId = useId();
  const ownRef = useRef<HTMLElement>(null);
  const sectionRef = outerRef ?? ownRef;

  // Locked grids follow their category when the route changes (docs/product.md §2).
  useEffect(() => {
    if (lockedCategory) setOwnFilter(lockedCategory);
  }, [lockedCategory]);

  const active = lockedCategory ?? filter;
  const visible = active === 'all' ? list : list.filter((p) => p.category === active);
  const viewAll = showViewAll ?? !lockedCategory;

  return (
    <section
      id={id}
      ref={sectionRef}
      aria-labelledby={title ? headingId : undefined}
      aria-label={title ? undefined : 'Products'}
      className={cn('scroll-mt-32 focus:outline-none md:scroll-mt-36', className)}
    >
      {title || subtitle ? (
        <div className="mb-6 flex flex-col gap-2 md:mb-8">
          {title ? (
            <h2 id={headingId} className="type-heading">
              {title}
            </h2>
          ) : null}
          {subtitle ? <p className="max-w-2xl text-base text-muted">{subtitle}</p> : null}
        </div>
      ) : null}

      {!lockedCategory ? (
        <div role="group" aria-label="Filter products by category" className="mb-8 flex flex-wrap gap-2">
          {GRID_FILTERS.map((f) => (
            <Button
              key={f.value}
              size="sm"
              variant={filter === f.value ? 'default' : 'outline'}
              aria-pressed={filter === f.value}
              onClick={() => setFilter(f.value)}
              className="h-9 px-3 sm:px-4"
            >
              {f.label}
            </Button>
          ))}
        </div>
      ) : null}

      {loading ? (
        <div role="status" aria-live="polite">
          <span className="sr-only">Loading products…</span>
          <div className={GRID}>
            {Array.from({ length: SKELETON_CARDS }, (_, i) => (
              <ProductCardSkeleton key={i} />
            ))}
          </div>
        </div>
      ) : visible.length === 0 ? (
        <p className="border border-dashed border-hairline-strong px-6 py-16 text-center text-muted">
          No products found in this category.
        </p>
      ) : (
        <ul className={GRID}>
          {visible.map((p, i) => (
            <li key={p.id} className="flex">
              <ProductCard
                product={p}
                priority={i < priorityCount}
                headingLevel={title ? 'h3' : 'h2'}
                className="w-full"
              />
            </li>
          ))}
        </ul>
      )}

      {footer}

      {viewAll ? (
        <div className="mt-10 flex justify-center">
          <Button
            variant="outline"
            size="lg"
            onClick={() => {
              setFilter('all');
              sectionRef.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
            }}
          >
            View All Products
          </Button>
        </div>
      ) : null}
    </section>
  );
}
