import type { ReactNode } from 'react';
import { FormField } from '../ui/form-field';
import { Input } from '../ui/input';
import { cardDigits, formatCardNumber, formatExpiry } from './card-input';

// The card form of the offline test gateway, the one for checkout and for the draw: the labels "Card number",
// "Expiry (MM/YY)" and "CVC" are a contract (DESIGN.md), and both forms take and check a card alike.

export type CardKey = 'cardNumber' | 'expiry' | 'cvc';
export type CardValues = Record<CardKey, string>;
export type CardErrors = Partial<Record<CardKey, string>>;

export const EMPTY_CARD: CardValues = { cardNumber: '', expiry: '', cvc: '' };

/** The order a form focuses its first card problem in. */
export const CARD_KEYS: readonly CardKey[] = ['cardNumber', 'expiry', 'cvc'];

/** Each card field's problem (none: the card can be sent), in the words both forms show. */
export function cardErrors(card: CardValues): CardErrors {
  const found: CardErrors = {};
  if (cardDigits(card.cardNumber).length < 12) found.cardNumber = 'Please enter your card number';
  if (!/^\d{2}\/\d{2}$/.test(card.expiry)) found.expiry = 'Please enter the expiry date as MM/YY';
  if (!/^\d{3,4}$/.test(card.cvc)) found.cvc = 'Please enter the CVC';
  return found;
}

/** The card as the gateway expects it: digits only. */
export function cardForSubmit(card: CardValues): CardValues {
  return { cardNumber: cardDigits(card.cardNumber), expiry: card.expiry, cvc: card.cvc };
}

/**
 * Card number, then expiry and CVC side by side. Input is shaped as it is typed ("4242 4242…", "12/30");
 * `onChange` receives the shaped value. `ids` names each control (the form focuses its first error);
 * `numberProblem` is a refusal that belongs to the card number (the gateway's decline), shown under it.
 */
export function CardFields({
  values,
  onChange,
  errors = {},
  ids,
  numberProblem,
}: {
  values: CardValues;
  onChange: (key: CardKey, value: string) => void;
  errors?: CardErrors;
  ids: (key: CardKey) => string;
  numberProblem?: { id: string; text: ReactNode } | null;
}) {
  return (
    <>
      <div className="grid content-start gap-1.5">
        <FormField label="Card number" id={ids('cardNumber')} error={errors.cardNumber}>
          {(a) => (
            <Input
              {...a}
              {...(numberProblem
                ? {
                    'aria-invalid': true,
                    'aria-describedby': [a['aria-describedby'], numberProblem.id].filter(Boolean).join(' '),
                  }
                : {})}
              inputMode="numeric"
              autoComplete="cc-number"
              placeholder="1234 1234 1234 1234"
              value={values.cardNumber}
              onChange={(e) => onChange('cardNumber', formatCardNumber(e.target.value))}
            />
          )}
        </FormField>
        {numberProblem && (
          <p id={numberProblem.id} role="alert" className="text-sm font-medium text-danger">
            {numberProblem.text}
          </p>
        )}
      </div>
      <div className="grid grid-cols-2 gap-4">
        <FormField label="Expiry (MM/YY)" id={ids('expiry')} error={errors.expiry}>
          {(a) => (
            <Input
              {...a}
              inputMode="numeric"
              autoComplete="cc-exp"
              placeholder="MM/YY"
              value={values.expiry}
              onChange={(e) => onChange('expiry', formatExpiry(e.target.value, values.expiry))}
            />
          )}
        </FormField>
        <FormField label="CVC" id={ids('cvc')} error={errors.cvc}>
          {(a) => (
            <Input
              {...a}
              inputMode="numeric"
              autoComplete="cc-csc"
              placeholder="123"
              maxLength={4}
              value={values.cvc}
              onChange={(e) => onChange('cvc', e.target.value.replace(/\D/g, '').slice(0, 4))}
            />
          )}
        </FormField>
      </div>
    </>
  );
}
