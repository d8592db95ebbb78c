import { describe, expect, test } from 'vitest';
import { cardDigits, formatCardNumber, formatExpiry } from './card-input';

describe('card input formatting', () => {
  test('groups card digits by four and drops anything else', () => {
    expect(formatCardNumber('4242424242424242')).toBe('4242 4242 4242 4242');
    expect(formatCardNumber('4242 4242 4242 4242')).toBe('4242 4242 4242 4242');
    expect(formatCardNumber('4000-0000-00')).toBe('4000 0000 00');
    expect(formatCardNumber('4242')).toBe('4242');
    expect(cardDigits('4242 4242 4242 4242')).toBe('4242424242424242');
  });
  test('expiry becomes MM/YY whether typed with or without the slash', () => {
    expect(formatExpiry('1230')).toBe('12/30');
    expect(formatExpiry('12/30')).toBe('12/30');
    expect(formatExpiry('12', '1')).toBe('12/');
    expect(formatExpiry('4', '')).toBe('04/');
    expect(formatExpiry('1', '')).toBe('1');
    expect(formatExpiry('12/345')).toBe('12/34');
  });
  test('backspace over the slash removes it and the digit before', () => {
    expect(formatExpiry('12', '12/')).toBe('1');
  });
});
