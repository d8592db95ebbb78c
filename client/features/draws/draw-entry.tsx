import { lazy, Suspense, useEffect, useRef, useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'wouter';
import type { DrawEntryView } from '../../../common/contracts/draws';
import type { Product } from '../../../common/contracts/catalog';
import { displayPrice } from '../../../common/domain/money';
import { ReleaseTime } from '../../components/drop-countdown';
import { Button } from '../../components/ui/button';
import { FormField } from '../../components/ui/form-field';
import { Input } from '../../components/ui/input';
import { Skeleton } from '../../components/ui/skeleton';
import { ApiError, apiJson } from '../../lib/api-client';
import { loadStorefrontContracts } from '../../lib/storefront-contracts';
import { cn } from '../../lib/cn';
import { parseMoney } from '../../../common/domain/money';
import { stripeFor } from '../../lib/stripe-loader';
import { useShopSettings } from '../../lib/use-shop-settings';
import { authenticateOffline, entryKey, problemText, useDrawEntry, useEntryAction } from './draw-api';
import { entryOutcome } from './draw-view';
import { DrawSizeFields, type DrawSizes } from './draw-size-fields';
import { OfflineBankDialog } from './offline-bank-dialog';
import type { StripeCardHandle } from './stripe-card-fields';

const StripeCardFields = lazy(() => import('./stripe-card-fields'));

const BANK_NOT_CONFIRMED = 'Your bank did not confirm this card. Confirm your entry again, or try another card.';
type BankStep = { clientSecret: string; authorisationId: string };
type ConfirmBody = { card?: { cardNumber: string; expiry: string; cvc: string }; paymentMethodId?: string };

/**
 * Confirming is when the card is authorised (docs/draw.md): a decline answers one message (402) and the page
 * offers another card; a 3-D Secure step (`cardAction`) runs the bank's page (Stripe.js, or the offline
 * gateway's stand-in dialog), then confirms again, and the server says how it went.
 */
function useConfirmation(token: string) {
  const action = useEntryAction(token);
  const queryClient = useQueryClient();
  const settings = useShopSettings();
  const stripeKey = settings.payments.provider === 'stripe' ? settings.payments.stripePublishableKey : null;
  const [problem, setProblem] = useState<string | null>(null);
  const [bankStep, setBankStep] = useState<BankStep | null>(null);
  const [authenticating, setAuthenticating] = useState(false);

  const confirm = async (body?: ConfirmBody, afterBank = false): Promise<void> => {
    setProblem(null);
    let view: DrawEntryView;
    try {
      view = await action.mutateAsync({ kind: 'confirm', body });
    } catch (err) {
      setProblem(problemText(err, 'Your entry could not be confirmed. Please try again.'));
      // A declined card marks the entry: read it again so the page offers another card.
      void queryClient.invalidateQueries({ queryKey: entryKey(token) });
      return;
    }
    if (!view.cardAction) return;
    if (afterBank) {
      setProblem(BANK_NOT_CONFIRMED);
      return;
    }
    if (!stripeKey) {
      setBankStep(view.cardAction);
      return;
    }
    setAuthenticating(true);
    try {
      const stripe = await stripeFor(stripeKey);
      await stripe?.handleNextAction({ clientSecret: view.cardAction.clientSecret });
    } finally {
      setAuthenticating(false);
    }
    await confirm(undefined, true);
  };

  const answerBank = async (outcome: 'complete' | 'fail') => {
    const step = bankStep;
    if (!step) return;
    setAuthenticating(true);
    try {
      await authenticateOffline(step.authorisationId, { clientSecret: step.clientSecret, outcome });
    } catch {
      // The confirmation below reads what the bank decided and says it in the shop's one message.
    } finally {
      setBankStep(null);
      setAuthenticating(false);
    }
    await confirm(undefined, true);
  };

  return {
    confirm,
    problem,
    stripeKey,
    busy: action.isPending || authenticating,
    dialog: (
      <OfflineBankDialog
        open={bankStep !== null}
        busy={authenticating}
        onAnswer={(outcome) => void answerBank(outcome)}
        onAbandon={() => {
          setBankStep(null);
          setProblem(BANK_NOT_CONFIRMED);
        }}
      />
    ),
  };
}
type Confirmation = ReturnType<typeof useConfirmation>;

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
  const confirmation = useConfirmation(token);
  const confirmedOnce = useRef(false);
  const data = entry.data;

  // The mailed link confirms the entry: once, on opening, while it can still be confirmed (a card declined
  // before waits for another one instead).
  useEffect(() => {
    if (!data || confirmedOnce.current) return;
    confirmedOnce.current = true;
    if (data.status === 'pending' && data.changeable && !data.cardFailed) void confirmation.confirm();
  }, [data, confirmation]);

  useEffect(() => {
    if (data) onTitle(`Your entry: ${data.productName}`);
    else if (entry.isError) onTitle('Link not valid');
  }, [data, entry.isError, onTitle]);

  if (entry.isError) {
    const notFound = entry.error instanceof ApiError && entry.error.status < 500;
    return (
      <div className="grid gap-3" role="alert">
        <h1 className="type-display-sm">
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
  return <EntryView entry={data} token={token} confirmation={confirmation} />;
}

function EntryView({
  entry,
  token,
  confirmation,
}: {
  entry: DrawEntryView;
  token: string;
  confirmation: Confirmation;
}) {
  const confirming = confirmation.busy;
  const outcome = entryOutcome(entry);
  const drawLink = `/draws/${entry.drawId}?entry=${entry.publicId}`;
  const drawn = entry.rank !== null;
  return (
    <div className="grid gap-6">
      <div>
        <p className="type-eyebrow text-muted">Your draw entry</p>
        <h1 className="type-display-sm mt-1">
          <Link href={`/product/${entry.productId}`} className="hover:underline">
            {entry.productName}
          </Link>
        </h1>
      </div>

      <div
        role="status"
        data-testid="entry-outcome"
        className={cn(
          'grid gap-1 border border-hairline p-4',
          outcome.tone === 'won' ? 'bg-success-soft' : outcome.tone === 'pending' ? 'bg-bone' : 'bg-surface',
        )}
      >
        <p className="type-title">
          {confirming ? 'Confirming your entry…' : outcome.title}
        </p>
        {!confirming && outcome.lines.map((l) => <p key={l}>{l}</p>)}
      </div>

      <section aria-labelledby="entry-details" className="grid gap-3">
        <h2 id="entry-details" className="type-heading">
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
          <dt className="font-semibold">
            {entry.status === 'won'
              ? 'Charged'
              : entry.status === 'pending'
                ? 'Authorised when you confirm'
                : 'Authorised, not charged'}
          </dt>
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

      {confirmation.problem && (
        <p role="alert" className="border border-danger bg-danger-soft p-3 text-sm font-medium text-danger">
          {confirmation.problem}
        </p>
      )}
      {confirmation.dialog}
      {entry.status === 'pending' && entry.changeable && !confirming && (
        <ConfirmEntry entry={entry} confirmation={confirmation} />
      )}

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
      <h2 id="change-entry" className="type-heading">
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
        <p role="alert" className="border border-danger bg-danger-soft p-3 text-sm font-medium text-danger">
          {problem}
        </p>
      )}
      {withdrawing ? (
        <div
          className="grid gap-3 border border-danger p-4"
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

/**
 * A pending entry: confirm it again (after an abandoned bank step), or with another card once its card was
 * declined. Offline: one of Stripe's test cards typed in; with Stripe, Stripe's own card form.
 */
function ConfirmEntry({ entry, confirmation }: { entry: DrawEntryView; confirmation: Confirmation }) {
  const stripeCard = useRef<StripeCardHandle | null>(null);
  const [card, setCard] = useState({ cardNumber: '', expiry: '', cvc: '' });
  const [cardProblem, setCardProblem] = useState<string | null>(null);

  if (!entry.cardFailed) {
    return (
      <Button className="justify-self-start" disabled={confirmation.busy} onClick={() => void confirmation.confirm()}>
        Confirm my entry
      </Button>
    );
  }

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setCardProblem(null);
    if (confirmation.stripeKey) {
      const made = await stripeCard.current?.paymentMethod();
      if (!made || 'error' in made) {
        setCardProblem(made?.error ?? 'Your card could not be read. Please try again.');
        return;
      }
      await confirmation.confirm({ paymentMethodId: made.id });
      return;
    }
    if (!card.cardNumber.trim() || !card.expiry.trim() || !card.cvc.trim()) {
      setCardProblem('Please enter your card details.');
      return;
    }
    await confirmation.confirm({ card });
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate aria-labelledby="another-card" className="grid gap-4 border-t border-black/10 pt-6">
      <h2 id="another-card" className="type-heading">
        Try another card
      </h2>
      {confirmation.stripeKey ? (
        <Suspense fallback={<p className="text-sm text-muted">Loading the card form…</p>}>
          <StripeCardFields ref={stripeCard} publishableKey={confirmation.stripeKey} amountCents={parseMoney(entry.amount)} />
        </Suspense>
      ) : (
        <div className="grid gap-4 sm:grid-cols-3">
          <FormField label="Card number" id="entry-card-number">
            {(a) => (
              <Input
                {...a}
                inputMode="numeric"
                autoComplete="cc-number"
                value={card.cardNumber}
                onChange={(e) => setCard((c) => ({ ...c, cardNumber: e.target.value }))}
              />
            )}
          </FormField>
          <FormField label="Expiry (MM/YY)" id="entry-card-expiry">
            {(a) => (
              <Input
                {...a}
                autoComplete="cc-exp"
                placeholder="MM/YY"
                value={card.expiry}
                onChange={(e) => setCard((c) => ({ ...c, expiry: e.target.value }))}
              />
            )}
          </FormField>
          <FormField label="CVC" id="entry-card-cvc">
            {(a) => (
              <Input
                {...a}
                inputMode="numeric"
                autoComplete="cc-csc"
                value={card.cvc}
                onChange={(e) => setCard((c) => ({ ...c, cvc: e.target.value }))}
              />
            )}
          </FormField>
        </div>
      )}
      {cardProblem && (
        <p role="alert" className="text-sm font-medium text-red-800">
          {cardProblem}
        </p>
      )}
      <Button type="submit" className="justify-self-start" disabled={confirmation.busy}>
        Confirm with this card
      </Button>
    </form>
  );
}
