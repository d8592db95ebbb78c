import { describe, expect, test } from 'vitest';
import { evaluateTestCard, parseExpiry, passesLuhn } from './offline-card';

const now = new Date('2026-05-15T10:00:00Z');
const card = (cardNumber: string, expiry = '12/30', cvc = '123') =>
  evaluateTestCard({ cardNumber, expiry, cvc }, now);

describe('offline test cards (Stripe test-mode semantics)', () => {
  test('4242 4242 4242 4242 succeeds, with or without spaces', () => {
    expect(card('4242 4242 4242 4242')).toEqual({ ok: true });
    expect(card('4242424242424242')).toEqual({ ok: true });
    expect(card('5555 5555 5555 4444')).toEqual({ ok: true });
  });

  test('the decline cards give Stripe’s messages', () => {
    expect(card('4000 0000 0000 0002')).toMatchObject({ ok: false, message: 'Your card was declined.' });
    expect(card('4000 0000 0000 9995')).toMatchObject({
      ok: false,
      message: 'Your card has insufficient funds.',
    });
    expect(card('4000 0000 0000 0069')).toMatchObject({ ok: false, message: 'Your card has expired.' });
    expect(card('4000 0000 0000 0127')).toMatchObject({
      ok: false,
      message: "Your card's security code is incorrect.",
    });
  });

  test('numbers that fail the Luhn check are invalid; other valid numbers are declined', () => {
    expect(card('4242 4242 4242 4241')).toMatchObject({ ok: false, message: 'Your card number is invalid.' });
    expect(card('1234')).toMatchObject({ ok: false, message: 'Your card number is invalid.' });
    expect(card('abcd efgh ijkl mnop')).toMatchObject({ ok: false, message: 'Your card number is invalid.' });
    expect(card('4111 1111 1111 1111')).toMatchObject({ ok: false, message: 'Your card was declined.' });
  });

  test('expiry: malformed or in the past', () => {
    expect(card('4242424242424242', '13/30')).toMatchObject({
      ok: false,
      message: "Your card's expiration date is invalid.",
    });
    expect(card('4242424242424242', '1230')).toMatchObject({
      ok: false,
      message: "Your card's expiration date is invalid.",
    });
    expect(card('4242424242424242', '04/26')).toMatchObject({ ok: false, message: 'Your card has expired.' });
    expect(card('4242424242424242', '05/26')).toEqual({ ok: true });
    expect(card('4242424242424242', '05/2031')).toEqual({ ok: true });
  });

  test('CVC must be 3 or 4 digits', () => {
    expect(card('4242424242424242', '12/30', '12')).toMatchObject({
      ok: false,
      message: "Your card's security code is invalid.",
    });
    expect(card('4242424242424242', '12/30', 'abc')).toMatchObject({ ok: false, code: 'invalid_cvc' });
    expect(card('4242424242424242', '12/30', '1234')).toEqual({ ok: true });
  });

  test('helpers', () => {
    expect(passesLuhn('4242424242424242')).toBe(true);
    expect(passesLuhn('4242424242424243')).toBe(false);
    expect(parseExpiry('7/29')).toEqual({ month: 7, year: 2029 });
    expect(parseExpiry('00/29')).toBeNull();
  });
});
