import { Link } from 'wouter';
import { pageLinks } from '../../../common/domain/product-page';
import { buttonVariants } from '../../components/ui/button';
import { cn } from '../../lib/cn';

export interface GridPagesProps {
  page: number;
  pageCount: number;
  pageSize: number;
  total: number;
  /** Where page `n` lives: a real URL, so the links work before (or without) any script. */
  hrefFor: (n: number) => string;
}

/** Page links under a product grid: Previous, 1 … 4 5 6 … 42, Next. */
export function GridPages({ page, pageCount, pageSize, total, hrefFor }: GridPagesProps) {
  if (pageCount <= 1) return null;
  const first = (page - 1) * pageSize + 1;
  const last = Math.min(page * pageSize, total);
  // Quiet links; the page the shopper is on is outlined (a selected state, not a fill).
  const step = buttonVariants({ variant: 'quiet', size: 'sm' });
  return (
    <nav aria-label="Product pages" className="mt-10 flex flex-col items-center gap-4">
      <p className="text-sm text-muted">
        Showing {first}–{last} of {total}
      </p>
      <ul className="flex flex-wrap items-center justify-center gap-1.5 sm:gap-2">
        {page > 1 ? (
          <li>
            <Link href={hrefFor(page - 1)} rel="prev" className={cn(step, 'h-11 px-3 sm:px-4')}>
              Previous
            </Link>
          </li>
        ) : null}
        {pageLinks(page, pageCount).map((n, i) =>
          n === null ? (
            <li key={`gap-${i}`} aria-hidden="true" className="px-1 text-muted">
              …
            </li>
          ) : (
            <li key={n}>
              <Link
                href={hrefFor(n)}
                aria-label={`Page ${n}`}
                aria-current={n === page ? 'page' : undefined}
                className={cn(
                  buttonVariants({ variant: n === page ? 'secondary' : 'quiet', size: 'sm' }),
                  'h-11 min-w-11 px-3',
                )}
              >
                {n}
              </Link>
            </li>
          ),
        )}
        {page < pageCount ? (
          <li>
            <Link href={hrefFor(page + 1)} rel="next" className={cn(step, 'h-11 px-3 sm:px-4')}>
              Next
            </Link>
          </li>
        ) : null}
      </ul>
    </nav>
  );
}
