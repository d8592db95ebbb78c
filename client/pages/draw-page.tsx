import { useParams, useSearch } from 'wouter';
import { isUuid } from '../../common/domain/ids';
import { Breadcrumb } from '../components/breadcrumb';
import { Skeleton } from '../components/ui/skeleton';
import { usePublicDraw } from '../features/draws/draw-api';
import { DrawResults } from '../features/draws/draw-results';
import { NotFoundState } from '../features/static-pages/not-found-state';
import { ApiError } from '../lib/api-client';
import { useDocumentTitle } from '../lib/use-document-title';
import { useShopSettings } from '../lib/use-shop-settings';

/**
 * /draws/:id: a draw anyone can check (docs/draw.md). `?entry=<public id>` (the entrant's page links here with
 * it) marks the visitor's own row. The draw changes as it runs, so the page reads it in the browser.
 */
export default function DrawPage() {
  const { id = '' } = useParams<{ id: string }>();
  const entry = new URLSearchParams(useSearch()).get('entry');
  const valid = isUuid(id);
  const draw = usePublicDraw(id, valid);
  const { shopName } = useShopSettings();
  const missing = !valid || (draw.error instanceof ApiError && draw.error.status === 404);
  useDocumentTitle(
    missing
      ? `Draw Not Found | ${shopName}`
      : draw.data
        ? `The draw: ${draw.data.productName} | ${shopName}`
        : null,
  );

  if (missing)
    return <NotFoundState title="Draw Not Found" message="The draw you are looking for does not exist." />;
  return (
    <div className="mx-auto max-w-5xl px-4 pb-16 md:px-6">
      <div className="pt-6 pb-6">
        <Breadcrumb
          items={[{ label: 'Home', href: '/' }, { label: 'Drops', href: '/drops' }, { label: 'The draw' }]}
        />
      </div>
      {draw.data ? (
        <DrawResults draw={draw.data} entryId={entry} />
      ) : draw.isError ? (
        <p role="alert" className="border-2 border-red-700 bg-red-50 p-4 text-sm text-red-900">
          Could not load the draw. Reload the page to try again.
        </p>
      ) : (
        <div className="grid gap-4" aria-busy="true" aria-label="Loading the draw">
          <Skeleton className="h-16 w-2/3" />
          <Skeleton className="h-32" />
          <Skeleton className="h-64" />
        </div>
      )}
    </div>
  );
}
