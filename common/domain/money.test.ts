import { describe, expect, test } from 'vitest';
import { displayPrice, formatMoney, formatMoneyOrNull, formatUsd, parseMoney, parseMoneyOrNull, percentOf } from './money';

describe('money', () => {
  test('parses wire strings to cents without float error', () => {
    expect(parseMoney('12.34')).toBe(1234);
    expect(parseMoney('0.1')).toBe(10);
    expect(parseMoney('60')).toBe(6000);
    expect(parseMoney('99999999.99')).toBe(9999999999);
  });
  test('refuses non-amounts', () => {
    for (const bad of ['', 'abc', '-1', '1.234', '1e5']) expect(() => parseMoney(bad)).toThrow();
  });
  test('formats cents', () => {
    expect(formatMoney(1234)).toBe('12.34');
    expect(formatMoney(5)).toBe('0.05');
    expect(formatUsd(4500)).toBe('$45.00');
    expect(formatUsd(-150)).toBe('-$1.50');
    expect(displayPrice('8.9')).toBe('$8.90');
  });
  test('optional amounts: null stays null, and cents and wire strings round-trip (the database keeps cents)', () => {
    expect(formatMoneyOrNull(null)).toBeNull();
    expect(parseMoneyOrNull(null)).toBeNull();
    expect(formatMoneyOrNull(9999999999)).toBe('99999999.99');
    for (const cents of [0, 1, 10, 1499, 4500, 9999999999]) expect(parseMoneyOrNull(formatMoneyOrNull(cents))).toBe(cents);
  });
  test('percent rounds to the cent', () => {
    expect(percentOf(4500, 15)).toBe(675);
    expect(percentOf(3333, 15)).toBe(500);
  });
});
