import { describe, expect, test } from 'vitest';
import { customerInfoFields } from '../../../common/contracts/checkout';
import { newsletterBody } from '../../../common/contracts/newsletter';
import { cardErrors, cardForSubmit } from './card-fields';
import { EMAIL_MESSAGE } from './email-field';

describe('the shared card fields', () => {
  test('name each missing or malformed part in the words checkout and the draw show', () => {
    expect(cardErrors({ cardNumber: '4242', expiry: '1/30', cvc: '1' })).toEqual({
      cardNumber: 'Please enter your card number',
      expiry: 'Please enter the expiry date as MM/YY',
      cvc: 'Please enter the CVC',
    });
    expect(cardErrors({ cardNumber: '4242 4242 4242 4242', expiry: '12/30', cvc: '123' })).toEqual({});
  });

  test('send the card number as digits only', () => {
    expect(cardForSubmit({ cardNumber: '4242 4242 4242 4242', expiry: '12/30', cvc: '123' })).toEqual({
      cardNumber: '4242424242424242',
      expiry: '12/30',
      cvc: '123',
    });
  });
});

describe('the shared e-mail field', () => {
  test("names a bad address in the checkout's and the newsletter's own words", () => {
    const checkout = customerInfoFields.shape.email.safeParse('not-an-address');
    const newsletter = newsletterBody.shape.email.safeParse('not-an-address');
    expect(checkout.error?.issues[0]?.message).toBe(EMAIL_MESSAGE);
    expect(newsletter.error?.issues[0]?.message).toBe(EMAIL_MESSAGE);
  });
});
