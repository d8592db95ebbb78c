import { useImperativeHandle, type Ref } from 'react';
import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import { stripeFor } from '../../lib/stripe-loader';
import { stripeAppearance } from '../../components/forms/stripe-appearance';

// With Stripe, the entry's card is read by Stripe's own Payment Element (as at checkout), in deferred mode:
// no PaymentIntent exists yet. Stripe.js turns the card into a PaymentMethod, and the server authorises it
// (capture_method manual) for the draw's price when the entry arrives. A chunk of its own, so offline
// shops never download Stripe code.

export interface StripeCardHandle {
  /** The card as a Stripe PaymentMethod id, or the card form's own error. */
  paymentMethod(): Promise<{ id: string } | { error: string }>;
  /**
   * The bank's 3-D Secure step for the entry's authorisation (Stripe.js's own dialog): done once the amount
   * is held, else the bank's or Stripe's words.
   */
  confirmWithBank(clientSecret: string): Promise<{ ok: true } | { error: string }>;
}

export default function StripeCardFields({
  publishableKey,
  amountCents,
  ref,
}: {
  publishableKey: string;
  amountCents: number;
  ref: Ref<StripeCardHandle | null>;
}) {
  return (
    <Elements
      stripe={stripeFor(publishableKey)}
      options={{
        mode: 'payment',
        amount: amountCents,
        currency: 'usd',
        captureMethod: 'manual',
        paymentMethodCreation: 'manual',
        appearance: stripeAppearance,
      }}
    >
      <CardElement handle={ref} />
    </Elements>
  );
}

function CardElement({ handle }: { handle: Ref<StripeCardHandle | null> }) {
  const stripe = useStripe();
  const elements = useElements();
  useImperativeHandle(
    handle,
    () => ({
      async paymentMethod() {
        if (!stripe || !elements) return { error: 'The card form is still loading. Please try again.' };
        const submitted = await elements.submit();
        if (submitted.error) return { error: submitted.error.message ?? 'Please check your card details.' };
        const { error, paymentMethod } = await stripe.createPaymentMethod({ elements });
        if (error || !paymentMethod)
          return { error: error?.message ?? 'Your card could not be read. Please try again.' };
        return { id: paymentMethod.id };
      },
      async confirmWithBank(clientSecret: string) {
        if (!stripe) return { error: 'The card form is still loading. Please try again.' };
        const { error, paymentIntent } = await stripe.handleNextAction({ clientSecret });
        if (error)
          return { error: error.message ?? 'Your bank did not confirm this card. Please try another card.' };
        // Manual capture: a confirmed card leaves the amount held (requires_capture), not charged.
        if (paymentIntent?.status !== 'requires_capture') {
          return { error: 'Your bank did not confirm this card. Please try another card.' };
        }
        return { ok: true as const };
      },
    }),
    [stripe, elements],
  );
  return <PaymentElement options={{ layout: 'tabs', paymentMethodOrder: ['card'] }} />;
}
