import { useState, type FormEvent } from 'react';
import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import { stripeFor } from '../../lib/stripe-loader';
import { stripeAppearance } from '../../components/forms/stripe-appearance';
import { Lock } from 'lucide-react';
import { formatUsd } from '../../../common/domain/money';
import { Button } from '../../components/ui/button';
import { paymentFailed } from './payment-messages';

export interface StripePaymentFormProps {
  publishableKey: string;
  clientSecret: string;
  amount: number;
  disabled: boolean;
  onPaid: () => Promise<void>;
}

/** Stripe Payment Element; a separate chunk so offline shops never download Stripe code. */
export default function StripePaymentForm({ publishableKey, clientSecret, ...rest }: StripePaymentFormProps) {
  return (
    <Elements
      key={clientSecret}
      stripe={stripeFor(publishableKey)}
      options={{
        clientSecret,
        appearance: stripeAppearance,
      }}
    >
      <StripeForm {...rest} />
    </Elements>
  );
}

function StripeForm({
  amount,
  disabled,
  onPaid,
}: Omit<StripePaymentFormProps, 'publishableKey' | 'clientSecret'>) {
  const stripe = useStripe();
  const elements = useElements();
  const [processing, setProcessing] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!stripe || !elements) return;
    setProcessing(true);
    try {
      const { error, paymentIntent } = await stripe.confirmPayment({
        elements,
        redirect: 'if_required',
        // Only redirect-based methods come back here; the checkout page finishes the order then.
        confirmParams: { return_url: `${window.location.origin}/checkout` },
      });
      if (error) {
        paymentFailed(new Error(error.message ?? 'Your payment could not be processed. Please try again.'));
        return;
      }
      if (paymentIntent?.status === 'succeeded') await onPaid();
      else paymentFailed(new Error('Your payment could not be processed. Please try again.'));
    } finally {
      setProcessing(false);
    }
  };

  return (
    <form onSubmit={submit} className="space-y-4" aria-label="Card payment">
      <PaymentElement options={{ layout: 'tabs' }} />
      <Button
        type="submit"
        variant="primary"
        size="lg"
        className="w-full"
        disabled={disabled || processing || !stripe || !elements}
      >
        {processing ? (
          'Processing...'
        ) : (
          <>
            <Lock className="h-4 w-4" aria-hidden="true" />
            Pay {formatUsd(amount)}
          </>
        )}
      </Button>
    </form>
  );
}
