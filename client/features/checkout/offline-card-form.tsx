import { useState, type FormEvent } from 'react';
import { Lock } from 'lucide-react';
import { formatUsd } from '../../../common/domain/money';
import { Button } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { cardDigits, formatCardNumber, formatExpiry } from './card-input';
import { confirmOfflinePayment } from './checkout-api';
import { paymentFailed, paymentFailureMessage } from './payment-messages';

type CardField = 'cardNumber' | 'expiry' | 'cvc';

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
  const [card, setCard] = useState({ cardNumber: '', expiry: '', cvc: '' });
  const [errors, setErrors] = useState<Partial<Record<CardField, string>>>({});
  const [processing, setProcessing] = useState(false);
  // The gateway's refusal ('Your card was declined.'), kept beside the card number until it changes.
  const [declined, setDeclined] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found: Partial<Record<CardField, string>> = {};
    if (cardDigits(card.cardNumber).length < 12) found.cardNumber = 'Please enter your card number';
    if (!/^\d{2}\/\d{2}$/.test(card.expiry)) found.expiry = 'Please enter the expiry date as MM/YY';
    if (!/^\d{3,4}$/.test(card.cvc)) found.cvc = 'Please enter the CVC';
    setErrors(found);
    setDeclined(null);
    if (Object.keys(found).length > 0) {
      document.getElementById(`card-${Object.keys(found)[0]}`)?.focus();
      return;
    }
    setProcessing(true);
    try {
      await confirmOfflinePayment({
        clientSecret,
        cardNumber: cardDigits(card.cardNumber),
        expiry: card.expiry,
        cvc: card.cvc,
      });
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

  const field = (name: CardField) => {
    const refused = name === 'cardNumber' && declined !== null;
    return {
      id: `card-${name}`,
      'aria-invalid': Boolean(errors[name]) || refused,
      'aria-describedby':
        [errors[name] && `card-${name}-error`, refused && 'card-declined'].filter(Boolean).join(' ') ||
        undefined,
    };
  };
  const error = (name: CardField) =>
    errors[name] && (
      <p id={`card-${name}-error`} className="text-sm font-medium text-danger">
        {errors[name]}
      </p>
    );

  return (
    <form onSubmit={submit} noValidate className="space-y-4" aria-label="Card payment">
      <div className="space-y-1.5">
        <Label htmlFor="card-cardNumber">Card number</Label>
        <Input
          {...field('cardNumber')}
          inputMode="numeric"
          autoComplete="cc-number"
          placeholder="1234 1234 1234 1234"
          value={card.cardNumber}
          onChange={(e) => {
            setCard((c) => ({ ...c, cardNumber: formatCardNumber(e.target.value) }));
            setDeclined(null);
          }}
        />
        {error('cardNumber')}
        {declined && (
          <p id="card-declined" role="alert" className="text-sm font-medium text-danger">
            {declined}
          </p>
        )}
      </div>
      <div className="grid grid-cols-2 gap-4">
        <div className="space-y-1.5">
          <Label htmlFor="card-expiry">Expiry (MM/YY)</Label>
          <Input
            {...field('expiry')}
            inputMode="numeric"
            autoComplete="cc-exp"
            placeholder="MM/YY"
            value={card.expiry}
            onChange={(e) => setCard((c) => ({ ...c, expiry: formatExpiry(e.target.value, c.expiry) }))}
          />
          {error('expiry')}
        </div>
        <div className="space-y-1.5">
          <Label htmlFor="card-cvc">CVC</Label>
          <Input
            {...field('cvc')}
            inputMode="numeric"
            autoComplete="cc-csc"
            placeholder="123"
            maxLength={4}
            value={card.cvc}
            onChange={(e) => setCard((c) => ({ ...c, cvc: e.target.value.replace(/\D/g, '').slice(0, 4) }))}
          />
          {error('cvc')}
        </div>
      </div>
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
