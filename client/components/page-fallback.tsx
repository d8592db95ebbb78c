import { Skeleton } from './ui/skeleton';

export function PageFallback() {
  return (
    <div className="mx-auto max-w-7xl px-4 py-10" role="status" aria-label="Loading">
      <Skeleton className="mb-6 h-10 w-1/3" />
      <Skeleton className="h-72 w-full" />
    </div>
  );
}
