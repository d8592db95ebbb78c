import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import type { DrawEntryView } from '../../../common/contracts/draws';
import type { Product } from '../../../common/contracts/catalog';
import { displayPrice } from '../../../common/domain/money';
import { ReleaseTime } from '../../components/drop-countdown';
import { Button } from '../../components/ui/button';
import { Skeleton } from '../../components/ui/skeleton';
import { ApiError, apiJson } from '../../lib/api-client';
import { loadStorefrontContracts } from '../../lib/storefront-contracts';
import { cn } from '../../lib/cn';
import { problemText, useDrawEntry, useEntryAction } from './draw-api';
import { entryOutcome } from './draw-view';
import { DrawSizeFields, type DrawSizes } from './draw-size-fields';

const linkClass =
  'font-semibold underline underline-offset-4 hover:no-underline focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-blue-600';

function useProductSizes(productId: string | undefined) {
  return useQuery<Product>({
    queryKey: ['/api/products', productId],
    queryFn: () =>
      apiJson('GET', `/api/products/${encodeURIComponent(productId!)}`, undefined, () =>
        loadStorefrontContracts().then((m) => m.productSchema),
      ),
    enabled: Boolean(productId),
  });
}

/**
 * The entrant's page (the mailed link): opening it confirms the entry; it shows the entry, lets the entrant
 * change the sizes or withdraw until the window closes, and after the draw shows the outcome.
 */
export function DrawEntry({ token, onTitle }: { token: string; onTitle: (title: string) => void }) {
  const entry = useDrawEntry(token, true);
  const action = useEntryAction(token);
  const confirmedOnce = useRef(false);
  const data = entry.data;

  // The mailed link confirms the entry: once, on opening, while it can still be confirmed.
  useEffect(() => {
    if (!data || confirmedOnce.current) return;
    if (data.status === 'pending' && data.changeable) {
      confirmedOnce.current = true;
      action.mutate({ kind: 'confirm' });
    }
  }, [data, action]);

  useEffect(() => {
    if (data) onTitle(`Your entry: ${data.productName}`);
    else if (entry.isError) onTitle('Link not valid');
  }, [data, entry.isError, onTitle]);

  if (entry.isError) {
    const notFound = entry.error instanceof ApiError && entry.error.status < 500;
    return (
      <div className="grid gap-3" role="alert">
        <h1 className="font-display text-5xl uppercase leading-none">
          {notFound ? 'This link is not valid.' : 'Something went wrong.'}
        </h1>
        <p>
          {notFound
            ? 'Use the newest link we e-mailed you, or enter the draw again from the product page.'
            : 'Reload the page to try again.'}
        </p>
      </div>
    );
  }
  if (!data) {
    return (
      <div className="grid gap-4" aria-busy="true" aria-label="Loading your entry">
        <Skeleton className="h-12 w-2/3" />
        <Skeleton className="h-40" />
      </div>
    );
  }
  return (
    <EntryView
      entry={data}
      token={token}
      confirming={action.isPending && action.variables?.kind === 'confirm'}
    />
  );
}

function EntryView({
  entry,
  token,
  confirming,
}: {
  entry: DrawEntryView;
  token: string;
  confirming: boolean;
}) {
  const outcome = entryOutcome(entry);
  const drawLink = `/draws/${entry.drawId}?entry=${entry.publicId}`;
  const drawn = entry.rank !== null;
  return (
    <div className="grid gap-6">
      <div>
        <p className="text-xs font-bold uppercase tracking-[0.2em] text-muted">Your draw entry</p>
        <h1 className="mt-1 font-display text-5xl uppercase leading-none md:text-6xl">
          <Link href={`/product/${entry.productId}`} className="hover:underline">
            {entry.productName}
          </Link>
        </h1>
      </div>

      <div
        role="status"
        data-testid="entry-outcome"
        className={cn(
          'grid gap-1 border-2 border-ink p-4',
          outcome.tone === 'won' ? 'bg-accent' : outcome.tone === 'pending' ? 'bg-accent/30' : 'bg-paper',
        )}
      >
        <p className="font-display text-3xl uppercase leading-tight">
          {confirming ? 'Confirming your entry…' : outcome.title}
        </p>
        {!confirming && outcome.lines.map((l) => <p key={l}>{l}</p>)}
      </div>

      <section aria-labelledby="entry-details" className="grid gap-3">
        <h2 id="entry-details" className="font-display text-2xl uppercase">
          Your entry
        </h2>
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
          <dt className="font-semibold">Entry</dt>
          <dd className="break-all font-mono text-xs leading-5">{entry.publicId}</dd>
          <dt className="font-semibold">E-mail</dt>
          <dd className="break-all">{entry.email}</dd>
          {entry.size !== null && (
            <>
              <dt className="font-semibold">Size</dt>
              <dd>{entry.allocatedSize ?? entry.size}</dd>
              <dt className="font-semibold">Second choice</dt>
              <dd>{entry.secondSize ?? 'None'}</dd>
            </>
          )}
          <dt className="font-semibold">{entry.status === 'won' ? 'Charged' : 'Authorised, not charged'}</dt>
          <dd>{displayPrice(entry.amount)}</dd>
          <dt className="font-semibold">Entries close</dt>
          <dd>
            <ReleaseTime releaseAt={entry.closesAt} />
          </dd>
          <dt className="font-semibold">Draw</dt>
          <dd>
            <ReleaseTime releaseAt={entry.drawAt} />
          </dd>
          {drawn && (
            <>
              <dt className="font-semibold">Your rank</dt>
              <dd>{entry.rank}</dd>
            </>
          )}
          {entry.orderNumber && (
            <>
              <dt className="font-semibold">Order number</dt>
              <dd>{entry.orderNumber}</dd>
            </>
          )}
        </dl>
        <p className="text-sm">
          <Link href={drawLink} className={linkClass}>
            {drawn ? 'See the draw and check your rank' : 'How the draw works'}
          </Link>
        </p>
      </section>

      {entry.changeable && !confirming && <ChangeEntry entry={entry} token={token} />}
    </div>
  );
}

function ChangeEntry({ entry, token }: { entry: DrawEntryView; token: string }) {
  const product = useProductSizes(entry.size !== null ? entry.productId : undefined);
  const sizes = product.data?.sizes ?? [];
  const action = useEntryAction(token);
  const [chosen, setChosen] = useState<DrawSizes>({
    size: entry.size ?? '',
    secondSize: entry.secondSize ?? '',
  });
  const [saved, setSaved] = useState(false);
  const [withdrawing, setWithdrawing] = useState(false);
  const problem = action.error ? problemText(action.error, 'That did not work. Please try again.') : null;

  const save = (e: FormEvent) => {
    e.preventDefault();
    setSaved(false);
    action.mutate(
      { kind: 'change', body: { size: chosen.size || null, secondSize: chosen.secondSize || null } },
      { onSuccess: () => setSaved(true) },
    );
  };

  return (
    <section aria-labelledby="change-entry" className="grid gap-4 border-t border-black/10 pt-6">
      <h2 id="change-entry" className="font-display text-2xl uppercase">
        Change your entry
      </h2>
      <p className="text-sm">You can change your sizes or withdraw until the window closes.</p>
      {entry.size !== null && sizes.length > 0 && (
        <form onSubmit={save} className="grid gap-4 sm:grid-cols-2" aria-label="Change your sizes">
          <DrawSizeFields
            sizes={sizes}
            value={chosen}
            onChange={(update) => {
              setChosen(update);
              setSaved(false);
            }}
          />
          <div className="grid gap-2 sm:col-span-2">
            <Button
              type="submit"
              variant="outline"
              disabled={action.isPending}
              className="sm:justify-self-start"
            >
              Save sizes
            </Button>
            <p aria-live="polite" className="text-sm empty:hidden">
              {saved ? 'Your sizes are saved.' : ''}
            </p>
          </div>
        </form>
      )}
      {problem && (
        <p role="alert" className="border-2 border-red-700 bg-red-50 p-3 text-sm font-medium text-red-900">
          {problem}
        </p>
      )}
      {withdrawing ? (
        <div
          className="grid gap-3 border-2 border-red-700 p-4"
          role="group"
          aria-labelledby="withdraw-question"
        >
          <p id="withdraw-question" className="font-semibold">
            Withdraw your entry? It leaves the draw, and the authorisation on your card is released.
          </p>
          <div className="flex flex-wrap gap-3">
            <Button
              variant="destructive"
              disabled={action.isPending}
              onClick={() => action.mutate({ kind: 'withdraw' })}
            >
              Yes, withdraw
            </Button>
            <Button variant="outline" onClick={() => setWithdrawing(false)}>
              Keep my entry
            </Button>
          </div>
        </div>
      ) : (
        <Button variant="outline" className="justify-self-start" onClick={() => setWithdrawing(true)}>
          Withdraw my entry
        </Button>
      )}
    </section>
  );
}
