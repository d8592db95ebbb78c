import { lazy, Suspense, useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Link } from 'wouter';
import type { EnterDrawBody, PublicDraw } from '../../../common/contracts/draws';
import { PO_BOX_MESSAGE } from '../../../common/domain/fulfilment-promises';
import { parseMoney } from '../../../common/domain/money';
import {
  AddressFields,
  addressErrors,
  addressForSubmit,
  browserCountry,
} from '../../components/forms/address-fields';
import { CardFields, cardErrors, cardForSubmit, type CardKey } from '../../components/forms/card-fields';
import { EmailInput } from '../../components/forms/email-field';
import { Button } from '../../components/ui/button';
import { FormField } from '../../components/ui/form-field';
import { Input } from '../../components/ui/input';
import { HumanCheckStatus } from '../../lib/proof-of-work/human-check-status';
import { proveHuman } from '../../lib/proof-of-work/prove-human';
import { useShopSettings } from '../../lib/use-shop-settings';
import { problemText, useEnterDraw } from './draw-api';
import { authorisedNotChargedText, entryAmount } from './draw-view';
import { DrawSizeFields } from './draw-size-fields';
import type { StripeCardHandle } from './stripe-card-fields';

const StripeCardFields = lazy(() => import('./stripe-card-fields'));

/** An entry as sent, less its proof of work (each send solves a fresh one). */
type EntryBody = Omit<EnterDrawBody, 'altcha'>;

type Field =
  | 'size'
  | 'secondSize'
  | 'email'
  | 'firstName'
  | 'lastName'
  | 'shippingAddress'
  | 'shippingCity'
  | 'shippingState'
  | 'shippingZip'
  | 'shippingCountry'
  | 'cardNumber'
  | 'expiry'
  | 'cvc';

const FIELD_ORDER: Field[] = [
  'size',
  'secondSize',
  'email',
  'firstName',
  'lastName',
  'shippingCountry',
  'shippingAddress',
  'shippingCity',
  'shippingState',
  'shippingZip',
  'cardNumber',
  'expiry',
  'cvc',
];

const fieldId = (f: Field) => `draw-${f}`;

function Legend({ children }: { children: ReactNode }) {
  return <legend className="type-eyebrow mb-3 text-muted">{children}</legend>;
}

/**
 * "Enter the draw" while the window is open: sizes, e-mail, where it ships, the card (authorised, not
 * charged), a proof of work. The server checks everything again; this form only saves a round trip.
 */
export function DrawEntryForm({
  draw,
  sizes,
}: {
  draw: PublicDraw;
  sizes: readonly string[];
}) {
  const settings = useShopSettings();
  const stripeKey = settings.payments.provider === 'stripe' ? settings.payments.stripePublishableKey : null;
  const enter = useEnterDraw(draw.id);
  const stripeCard = useRef<StripeCardHandle | null>(null);
  const [values, setValues] = useState<Record<Field, string>>({
    // A piece in one size only: that size is the entry's, nothing to choose.
    size: sizes.length === 1 ? sizes[0]! : '',
    secondSize: '',
    email: '',
    firstName: '',
    lastName: '',
    shippingAddress: '',
    shippingCity: '',
    shippingState: '',
    shippingZip: '',
    shippingCountry: 'US',
    cardNumber: '',
    expiry: '',
    cvc: '',
  });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [checking, setChecking] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  // The sent form gives way to a short confirmation: focus and the view go to it (not left on the footer,
  // focus not lost to <body>).
  const confirmation = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = confirmation.current;
    if (!done || !el) return;
    el.focus({ preventScroll: true });
    el.scrollIntoView({ block: 'center' });
  }, [done]);
  // The page may be rendered on the server (no browser to ask): the browser's country is chosen once the
  // form is on screen, unless the shopper already picked one.
  const countryTouched = useRef(false);
  useEffect(() => {
    if (!countryTouched.current) setValues((old) => ({ ...old, shippingCountry: browserCountry() }));
  }, []);

  const set = (f: Field, v: string) => {
    setValues((old) => ({ ...old, [f]: v }));
    recheck({ ...values, [f]: v }, [f]);
  };
  const control = (f: Field) => ({
    id: fieldId(f),
    value: values[f],
    onChange: (e: { target: { value: string } }) => set(f, e.target.value),
  });

  const focusFirst = (found: Partial<Record<Field, string>>) => {
    const first = FIELD_ORDER.find((f) => found[f]);
    if (first) document.getElementById(fieldId(first))?.focus();
  };

  /** Every field's problem for these values (none: all is well), by the checkout's own rules and words. */
  const check = async (v: Record<Field, string>) => {
    const found: Partial<Record<Field, string>> = {};
    if (sizes.length > 0 && !v.size) found.size = 'Please choose a size.';
    if (!stripeKey) Object.assign(found, cardErrors(v));
    // The shipping details are checked by the checkout's own rules (the shared contract), same messages.
    await import('../../lib/zod-jitless');
    const { customerInfoBody } = await import('../../../common/contracts/checkout');
    const address = addressForSubmit({
      shippingAddress: v.shippingAddress,
      shippingCity: v.shippingCity,
      shippingState: v.shippingState,
      shippingZip: v.shippingZip,
      shippingCountry: v.shippingCountry,
    });
    // The country's own rules and words first (the server's data), then the contract for the rest.
    Object.assign(found, addressErrors(address));
    const customer = customerInfoBody.safeParse({
      email: v.email,
      firstName: v.firstName,
      lastName: v.lastName,
      ...address,
    });
    if (!customer.success) {
      for (const issue of customer.error.issues) {
        const f = issue.path[0] as Field;
        found[f] ??= issue.message;
      }
    }
    return { found, customer };
  };

  // After a send the fields that show an error are checked again as they change: each error goes as soon as
  // its field is fixed (and none appears while the shopper is still typing). The latest check wins.
  const lastCheck = useRef(0);
  const recheck = (next: Record<Field, string>, changed: readonly Field[]) => {
    const shown = changed.filter((f) => errors[f]);
    if (shown.length === 0) return;
    const mine = ++lastCheck.current;
    void check(next).then(({ found }) => {
      if (mine !== lastCheck.current) return;
      setErrors((old) => {
        const kept = { ...old };
        for (const f of shown) {
          if (found[f]) kept[f] = found[f];
          else delete kept[f];
        }
        return kept;
      });
    });
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    const { found, customer } = await check(values);
    lastCheck.current++;
    setErrors(found);
    if (Object.keys(found).length > 0 || !customer.success) {
      focusFirst(found);
      return;
    }
    let card: Pick<EnterDrawBody, 'card' | 'paymentMethodId'>;
    if (stripeKey) {
      const made = await stripeCard.current?.paymentMethod();
      if (!made || 'error' in made) {
        setProblem(made?.error ?? 'Your card could not be read. Please try again.');
        return;
      }
      card = { paymentMethodId: made.id };
    } else {
      card = { card: cardForSubmit(values) };
    }
    await send({
      ...customer.data,
      phone: null,
      size: values.size || null,
      secondSize: values.secondSize || null,
      ...card,
    });
  };

  /**
   * Sends the entry with a fresh proof of work. The card is only kept: the bank is asked once the mailed
   * link is followed (docs/draw.md), where a 3-D Secure step or another card is handled (draw-entry.tsx).
   */
  const send = async (body: EntryBody) => {
    let altcha: string;
    setChecking(true);
    try {
      altcha = await proveHuman();
    } catch {
      setProblem('We could not check you are human. Please try again.');
      return;
    } finally {
      setChecking(false);
    }
    enter.mutate(
      { ...body, altcha },
      {
        onSuccess: () => setDone(true),
        onError: (err) => {
          const text = problemText(err, 'Your entry could not be sent. Please try again.');
          // A drawn piece is a limited edition: the server's P.O. box refusal goes under the address field.
          if (text === PO_BOX_MESSAGE) {
            setErrors({ shippingAddress: text });
            focusFirst({ shippingAddress: text });
            return;
          }
          setProblem(text);
        },
      },
    );
  };

  if (done) {
    return (
      <div
        ref={confirmation}
        tabIndex={-1}
        role="status"
        className="grid gap-2 border border-hairline bg-surface p-4 focus:outline-none focus-visible:outline-3 focus-visible:outline-blue-600"
        data-testid="draw-entered"
      >
        <p className="type-title">
          Check your e-mail to confirm your entry.
        </p>
        <p className="text-sm">
          We sent a link to {values.email.trim()}. Your card is authorised when you confirm; an entry that is not
          confirmed before the window closes is not in the draw.
        </p>
      </div>
    );
  }

  const busy = checking || enter.isPending;
  const err = (f: Field) => errors[f];

  return (
    <form
      onSubmit={(e) => void submit(e)}
      noValidate
      aria-labelledby="draw-form-heading"
      className="grid gap-6"
    >
      <h3 id="draw-form-heading" className="sr-only">
        Your entry
      </h3>
      {sizes.length > 0 && (
        <fieldset className="grid gap-4 sm:grid-cols-2">
          <Legend>Sizes</Legend>
          <DrawSizeFields
            sizes={sizes}
            value={{ size: values.size, secondSize: values.secondSize }}
            onChange={(update) => {
              setValues((old) => ({ ...old, ...update(old) }));
              recheck({ ...values, ...update(values) }, ['size', 'secondSize']);
            }}
            ids={{ size: fieldId('size'), secondSize: fieldId('secondSize') }}
            errors={{ size: err('size'), secondSize: err('secondSize') }}
            required
            placeholder="Select a size"
            secondDescription="If your first size is gone by your turn."
          />
        </fieldset>
      )}

      <fieldset className="grid gap-4">
        <Legend>Contact</Legend>
        <FormField
          label="Email"
          id={fieldId('email')}
          error={err('email')}
          description="Your confirmation link and your result go here."
        >
          {(a) => <EmailInput {...a} {...control('email')} />}
        </FormField>
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField label="First Name" id={fieldId('firstName')} error={err('firstName')}>
            {(a) => <Input {...a} autoComplete="given-name" {...control('firstName')} />}
          </FormField>
          <FormField label="Last Name" id={fieldId('lastName')} error={err('lastName')}>
            {(a) => <Input {...a} autoComplete="family-name" {...control('lastName')} />}
          </FormField>
        </div>
      </fieldset>

      <fieldset className="grid gap-4">
        <Legend>Shipping Address</Legend>
        <AddressFields
          country={values.shippingCountry}
          ids={fieldId}
          errors={errors}
          bind={(key) => ({
            value: values[key],
            onChange: (e) => {
              if (key === 'shippingCountry') countryTouched.current = true;
              set(key, e.target.value);
            },
          })}
        />
      </fieldset>

      <fieldset className="grid gap-4" aria-describedby="draw-card-note">
        <Legend>Card</Legend>
        {stripeKey ? (
          <Suspense fallback={<p className="text-sm text-muted">Loading the card form…</p>}>
            <StripeCardFields
              ref={stripeCard}
              publishableKey={stripeKey}
              amountCents={parseMoney(draw.price)}
            />
          </Suspense>
        ) : (
          <>
            <CardFields
              values={values}
              errors={errors}
              ids={(key: CardKey) => fieldId(key)}
              onChange={set}
            />
            <p className="text-xs text-muted">
              Test mode: use 4242 4242 4242 4242, any future date and any CVC (4000 0027 6000 3184 asks you to
              confirm with your bank when you confirm your entry).
            </p>
          </>
        )}
        <p id="draw-card-note" className="border-l-4 border-ink pl-3 text-sm font-semibold">
          {authorisedNotChargedText(entryAmount(draw.price, values.shippingCountry, settings))}
        </p>
      </fieldset>

      {problem && (
        <p role="alert" className="border border-danger bg-danger-soft p-3 text-sm font-medium text-danger">
          {problem}
        </p>
      )}
      <div className="grid gap-3">
        <Button type="submit" size="lg" className="w-full" disabled={busy}>
          {checking ? 'Checking…' : enter.isPending ? 'Entering…' : 'Enter the draw'}
        </Button>
        <HumanCheckStatus checking={checking} />
        <p className="text-xs text-muted">
          One entry per person: a second entry with the same e-mail, address or card is removed before the
          draw.{' '}
          <Link
            href={`/draws/${draw.id}`}
            className="font-semibold text-ink underline underline-offset-4 hover:no-underline"
          >
            How the draw works
          </Link>
        </p>
      </div>
    </form>
  );
}

