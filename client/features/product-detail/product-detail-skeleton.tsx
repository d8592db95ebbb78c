import { Skeleton } from '../../components/ui/skeleton';

/** Same footprint as the loaded page so nothing jumps when data arrives. */
export function ProductDetailSkeleton() {
  return (
    <div
      className="mx-auto max-w-7xl px-4 py-6 sm:px-6 lg:px-8 lg:py-10"
      role="status"
      aria-label="Loading product"
    >
      <Skeleton className="mb-6 h-4 w-64 max-w-full" />
      <div className="grid gap-8 lg:grid-cols-2 lg:gap-14">
        <div className="flex flex-col gap-3">
          <Skeleton className="aspect-square w-full" />
          <div className="grid grid-cols-4 gap-3">
            {Array.from({ length: 4 }, (_, i) => (
              <Skeleton key={i} className="aspect-square w-full" />
            ))}
          </div>
        </div>
        <div className="flex flex-col gap-5">
          <Skeleton className="h-6 w-72 max-w-full" />
          <Skeleton className="h-14 w-4/5" />
          <Skeleton className="h-9 w-32" />
          <Skeleton className="h-24 w-full" />
          <Skeleton className="h-20 w-full" />
          <Skeleton className="h-12 w-full" />
          <Skeleton className="h-14 w-full" />
        </div>
      </div>
    </div>
  );
}
