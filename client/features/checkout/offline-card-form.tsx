import { useState, type FormEvent } from 'react';
import { Lock } from 'lucide-react';
import { formatUsd } from '../../../common/domain/money';
import { Button } from '../../components/ui/button';
import {
  CARD_KEYS,
  CardFields,
  cardErrors,
  cardForSubmit,
  EMPTY_CARD,
  type CardErrors,
} from '../../components/forms/card-fields';
import { confirmOfflinePayment } from './checkout-api';
import { paymentFailed, paymentFailureMessage } from './payment-messages';

/** The offline test gateway's card form (docs/product.md §11: labels Card number / Expiry (MM/YY) / CVC). */
export function OfflineCardForm({
  clientSecret,
  amount,
  disabled,
  onPaid,
}: {
  clientSecret: string;
  /** Cents, as the server computed them for the intent. */
  amount: number;
  disabled: boolean;
  onPaid: () => Promise<void>;
}) {
  const [card, setCard] = useState(EMPTY_CARD);
  const [errors, setErrors] = useState<CardErrors>({});
  const [processing, setProcessing] = useState(false);
  // The gateway's refusal ('Your card was declined.'), kept beside the card number until it changes.
  const [declined, setDeclined] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = cardErrors(card);
    setErrors(found);
    setDeclined(null);
    const first = CARD_KEYS.find((key) => found[key]);
    if (first) {
      document.getElementById(`card-${first}`)?.focus();
      return;
    }
    setProcessing(true);
    try {
      await confirmOfflinePayment({ clientSecret, ...cardForSubmit(card) });
    } catch (err) {
      paymentFailed(err);
      setDeclined(paymentFailureMessage(err));
      setProcessing(false);
      document.getElementById('card-cardNumber')?.focus();
      return;
    }
    try {
      await onPaid();
    } finally {
      setProcessing(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-4" aria-label="Card payment">
      <CardFields
        values={card}
        errors={errors}
        ids={(key) => `card-${key}`}
        numberProblem={declined === null ? null : { id: 'card-declined', text: declined }}
        onChange={(key, value) => {
          setCard((c) => ({ ...c, [key]: value }));
          if (key === 'cardNumber') setDeclined(null);
        }}
      />
      <Button type="submit" variant="primary" size="lg" className="w-full" disabled={disabled || processing}>
        {processing ? (
          'Processing...'
        ) : (
          <>
            <Lock className="h-4 w-4" aria-hidden="true" />
            Pay {formatUsd(amount)}
          </>
        )}
      </Button>
      <p className="text-center text-xs text-muted">
        Test mode: use 4242 4242 4242 4242, any future date and any CVC.
      </p>
    </form>
  );
}
