import { lazy, Suspense, useEffect, useId, useRef, useState, type ComponentType, type ReactNode } from 'react';
import { ArrowLeft, ChevronDown } from 'lucide-react';
import { displayPrice, parseMoney } from '../../../common/domain/money';
import { availableShippingMethods } from '../../../common/domain/shipping';
import { ApiError } from '../../lib/api-client';
import { cn } from '../../lib/cn';
import { useNow } from '../../lib/release-clock';
import type { CartItem } from '../../../common/contracts/cart';
import type { DiscountResult } from '../../../common/contracts/checkout';
import type { ShippingMethod } from '../../../common/contracts/settings';
import { postalAddressLines } from '../../../common/domain/address-format';
import { Button } from '../../components/ui/button';
import { Skeleton } from '../../components/ui/skeleton';
import { toast } from '../../components/ui/use-toast';
import { useShopSettings } from '../../lib/use-shop-settings';
import { SoldOutSizeWayForward } from '../../lib/cart/sold-out-size';
import {
  shopperMessage,
  useCheckoutCredit,
  useCustomerInfo,
  usePaymentIntent,
  useTotals,
  type PaymentIntent,
} from './checkout-api';
import { CheckoutProgress, type CheckoutStep } from './checkout-progress';
import { CustomerInfoForm } from './customer-info-form';
import { DiscountBox } from './discount-box';
import { HoldCountdown } from './hold-countdown';
import { OfflineCardForm } from './offline-card-form';
import { OrderSummary } from './order-summary';
import { ShippingMethodPicker } from './shipping-method-picker';
import { useCompleteOrder, useStripeRedirectReturn } from './use-complete-order';
import { PlaceWithCredit, StoreCreditBox } from './store-credit-box';

const StripePaymentForm = lazy(() => import('./stripe-payment-form'));

/**
 * A payment refused for want of a turn (403: a drop's pass is missing or has run out): asking again cannot
 * help, so no toast and no Try again; the way on is the waiting room's "Rejoin the line".
 */
const refusedForTurn = (err: unknown) => err instanceof ApiError && err.status === 403;

/** The two-step checkout of docs/product.md §2 for a non-empty cart. */
type DropLines = ReadonlyArray<{ productId: string; product: { name: string } }>;

/**
 * A drop's pieces at checkout (ADR 010): the pass timer on both steps, a refused payment told with the way
 * forward, and where to rejoin the line once a pass has run out. The page supplies them (the drops
 * feature's parts); features do not import each other.
 */
export interface CheckoutDropParts {
  PassNotice: ComponentType<{ lines: DropLines; holdEndsAt?: number | null; className?: string }>;
  Refusal: ComponentType<{ error: unknown; lines: DropLines; fallback: string; className?: string }>;
  /** A hook: the waiting room's address for a line whose pass has run out, else null. */
  useLapsedPassHref: (lines: DropLines) => string | null;
}

export function CheckoutFlow({ items, drops }: { items: CartItem[]; drops: CheckoutDropParts }) {
  const settings = useShopSettings();
  const customerInfo = useCustomerInfo();
  const saved = customerInfo.data ?? null;

  // Straight to payment when info is already saved (docs/product.md §4); the shopper's own choice wins after that.
  const [chosenStep, setChosenStep] = useState<CheckoutStep | null>(null);
  const step: CheckoutStep = chosenStep ?? (saved ? 'payment' : 'info');

  const [discount, setDiscount] = useState<DiscountResult | null>(null);
  // While the shopper picks a country on the info step, the summary is priced for it (the server answers).
  const [choosingCountry, setChoosingCountry] = useState<string | null>(null);
  const country = (step === 'info' ? choosingCountry : null) ?? saved?.shippingCountry ?? settings.homeCountry;
  const allowed = availableShippingMethods(country, settings.homeCountry);
  const [chosenMethod, setChosenMethod] = useState<ShippingMethod | null>(null);
  const shippingMethod = chosenMethod && allowed.includes(chosenMethod) ? chosenMethod : allowed[0];

  const choices = {
    discountCode: discount?.code ?? null,
    shippingMethod,
    // The server prices the destination's zone: another country is another answer.
    country,
    savedCountry: saved?.shippingCountry ?? null,
    cartSignature: items.map((i) => `${i.id}:${i.quantity}`).join(','),
  };
  const totals = useTotals(choices, !customerInfo.isPending);
  const settledTotals = totals.isPlaceholderData ? undefined : totals.data;
  // Store credit (docs/product.md §2.15): offered once the e-mail is saved; when it pays all, no card form.
  const credit = useCheckoutCredit(saved?.email ?? null);
  const [creditChosen, setCreditChosen] = useState(false);
  const balanceCents = parseMoney(credit.data?.balance ?? '0');
  const useCredit = creditChosen && balanceCents > 0;
  const creditCovers = useCredit && settledTotals !== undefined && balanceCents >= parseMoney(settledTotals.total);
  const intent = usePaymentIntent(choices, step === 'payment' && !creditCovers ? settledTotals : undefined, useCredit);
  const complete = useCompleteOrder();
  useStripeRedirectReturn(complete);

  useEffect(() => {
    if (totals.isError)
      toast({
        title: 'Error',
        description: 'Failed to calculate shipping. Please try again.',
        variant: 'destructive',
      });
  }, [totals.isError, totals.errorUpdatedAt]);
  useEffect(() => {
    if (intent.isError && !refusedForTurn(intent.error))
      toast({
        title: 'Error',
        description: shopperMessage(intent.error, 'Failed to initialize payment. Please try again.'),
        variant: 'destructive',
      });
  }, [intent.isError, intent.error, intent.errorUpdatedAt]);

  // Move focus to the new step's heading so keyboard and screen-reader users land in the right place.
  const firstRender = useRef(true);
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    document.getElementById(step === 'info' ? 'shipping-info-heading' : 'payment-heading')?.focus();
  }, [step]);

  if (customerInfo.isPending) {
    return (
      <div className="mt-8 grid gap-8 lg:grid-cols-[minmax(0,1fr)_420px]" role="status">
        <span className="sr-only">Loading checkout</span>
        <Skeleton className="h-96 w-full" />
        <Skeleton className="h-72 w-full" />
      </div>
    );
  }

  const summary = (
    <CollapsibleSummary total={totals.data?.total}>
      <OrderSummary items={items} totals={totals.data} loading={totals.isFetching} />
    </CollapsibleSummary>
  );

  return (
    <>
      <div className="mt-6 mb-8">
        <CheckoutProgress step={step} />
      </div>
      {/* A drop's pass on both steps, in view while the shopper types: it sticks below the site header
          (117 px tall once stuck at every width: phones keep its search row, wider screens its promo line)
          and on wide screens spans the form's column only, beside the summary that sticks on its own. Once
          the payment step holds the pieces, the hold covers them. */}
      <drops.PassNotice
        lines={items}
        holdEndsAt={step === 'payment' && intent.data && !intent.isError ? intent.data.holdEndsAt : null}
        className="sticky top-[117px] z-30 mb-6 lg:mr-[468px]"
      />
      {/* Each step's controls keep clear of the header and the notice above when focus scrolls to them
          (tabbing back up the form), so the field being typed in is never under them. */}
      {step === 'info' ? (
        // On phones the summary comes first, folded to one line with the total.
        <div className="grid gap-6 **:scroll-mt-60 lg:grid-cols-[minmax(0,1fr)_420px] lg:gap-12">
          <div className="lg:col-start-2 lg:row-start-1">{summary}</div>
          <div className="lg:col-start-1 lg:row-start-1 lg:border-t lg:border-hairline lg:pt-6">
            <CustomerInfoForm
              saved={saved}
              onCountryChange={setChoosingCountry}
              onSaved={() => setChosenStep('payment')}
              onSkip={() => setChosenStep('payment')}
            />
          </div>
        </div>
      ) : (
        // On phones the folded summary comes first, then the choices, then the card form.
        <div className="grid gap-6 **:scroll-mt-60 lg:grid-cols-[minmax(0,1fr)_420px] lg:gap-x-12 lg:gap-y-6">
          <div className="lg:col-start-2 lg:row-span-2 lg:row-start-1">{summary}</div>
          <div className="space-y-8 lg:col-start-1 lg:row-start-1 lg:border-t lg:border-hairline lg:pt-6">
            <div className="space-y-2">
              <h2
                id="payment-heading"
                tabIndex={-1}
                className="type-title focus:outline-none"
              >
                Payment
              </h2>
              {saved && (
                <p className="text-sm text-muted">
                  Shipping to {saved.firstName} {saved.lastName}, {postalAddressLines(saved).join(', ')}
                </p>
              )}
            </div>
            <DiscountBox applied={discount} onApply={setDiscount} onRemove={() => setDiscount(null)} />
            <ShippingMethodPicker
              rates={settings.shippingRates}
              country={country}
              value={shippingMethod}
              onChange={setChosenMethod}
              freeShipping={totals.data?.freeShippingEligible ?? false}
            />
          </div>
          <div className="space-y-6 border-t border-hairline pt-6 lg:col-start-1 lg:row-start-2">
            <StoreCreditBox
              credit={credit.data}
              checked={creditChosen}
              onChange={setCreditChosen}
              appliedCents={creditCovers && settledTotals ? parseMoney(settledTotals.total) : (intent.data?.creditApplied ?? null)}
            />
            {creditCovers && settledTotals ? (
              <PlaceWithCredit choices={choices} totals={settledTotals} />
            ) : (
            <PaymentSection
              drops={drops}
              items={items}
              intent={intent.data}
              error={intent.error}
              failed={intent.isError && !intent.isFetching}
              free={settledTotals !== undefined && Number(settledTotals.total) <= 0}
              stale={intent.isFetching || intent.isPlaceholderData || totals.isFetching}
              publishableKey={settings.payments.stripePublishableKey}
              onRetry={() => void intent.refetch()}
              onPaid={async () => {
                if (intent.data) await complete(intent.data.paymentIntentId);
              }}
            />
            )}
            <Button type="button" variant="quiet" className="px-0" onClick={() => setChosenStep('info')}>
              <ArrowLeft className="h-4 w-4" aria-hidden="true" />
              Back to Info
            </Button>
          </div>
        </div>
      )}
    </>
  );
}

/**
 * The order summary: always open beside the form on wide screens; on phones a one-line toggle with
 * the total at the top of the page, so the shopper can check the order without scrolling past the form.
 */
function CollapsibleSummary({ total, children }: { total: string | undefined; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  return (
    <div className="lg:sticky lg:top-32">
      <button
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((o) => !o)}
        className="flex w-full items-center justify-between gap-3 border-y border-hairline px-1 py-3 text-left text-sm font-medium focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-blue-600 lg:hidden"
      >
        <span className="flex items-center gap-2">
          {open ? 'Hide order summary' : 'Show order summary'}
          <ChevronDown
            className={cn('h-4 w-4 transition-transform', open && 'rotate-180')}
            aria-hidden="true"
          />
        </span>
        {total !== undefined && (
          <span className="text-base font-semibold tabular-nums">{displayPrice(total)}</span>
        )}
      </button>
      <div id={panelId} className={cn(open ? 'mt-3 block' : 'hidden', 'lg:mt-0 lg:block')}>
        {children}
      </div>
    </div>
  );
}

function PaymentSection({
  drops,
  items,
  intent,
  error,
  failed,
  free,
  stale,
  publishableKey,
  onRetry,
  onPaid,
}: {
  drops: CheckoutDropParts;
  items: CartItem[];
  intent: PaymentIntent | undefined;
  error: unknown;
  failed: boolean;
  free: boolean;
  stale: boolean;
  publishableKey: string | null;
  onRetry: () => void;
  onPaid: () => Promise<void>;
}) {
  // A drop piece whose pass has run out, not held (or its hold lapsed too), cannot be reserved or paid for:
  // the pass notice above (in view, sticky) says so once, with "Rejoin the line"; nothing here may be
  // pressed in vain. A live pass still reserves again.
  const { useLapsedPassHref, Refusal } = drops;
  const now = useNow(true);
  const rejoinHref = useLapsedPassHref(items);
  const held = intent !== undefined && !failed && intent.holdEndsAt > now;
  const turnOver = (rejoinHref !== null && !held) || (failed && refusedForTurn(error));
  return (
    <div className="space-y-4">
      <h2 className="type-title">Card Details</h2>
      {intent && !failed && !free && !turnOver && <HoldCountdown endsAt={intent.holdEndsAt} onRenew={onRetry} />}
      {free ? (
        <p className="text-sm text-muted">Nothing to pay.</p>
      ) : turnOver ? (
        rejoinHref !== null ? (
          <p className="text-sm text-muted">The card form opens again on your next turn.</p>
        ) : (
          // The server's word before this page's clock has it (the clocks differ): said here, with the link.
          <Refusal error={error} lines={items} fallback="We couldn't set up your payment." />
        )
      ) : failed ? (
        <div className="space-y-3">
          {/* The reason in place, with the way forward (Rejoin the line; the current stock). */}
          <Refusal error={error} lines={items} fallback="We couldn't set up your payment." />
          {/* A size sold out: another size, or the order without it (the payment is set up again). */}
          <SoldOutSizeWayForward error={error} lines={items} />
          <Button type="button" variant="outline" size="sm" onClick={onRetry}>
            Try again
          </Button>
        </div>
      ) : !intent ? (
        <div className="space-y-3" role="status">
          <span className="sr-only">Preparing payment</span>
          <Skeleton className="h-11 w-full" />
          <Skeleton className="h-11 w-full" />
          <Skeleton className="h-14 w-full" />
        </div>
      ) : intent.provider === 'stripe' && publishableKey ? (
        <Suspense fallback={<Skeleton className="h-48 w-full" />}>
          <StripePaymentForm
            publishableKey={publishableKey}
            clientSecret={intent.clientSecret}
            amount={intent.amount}
            disabled={stale}
            onPaid={onPaid}
          />
        </Suspense>
      ) : (
        <OfflineCardForm
          clientSecret={intent.clientSecret}
          amount={intent.amount}
          disabled={stale}
          onPaid={onPaid}
        />
      )}
    </div>
  );
}
