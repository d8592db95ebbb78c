import { describe, expect, test } from 'vitest';
import { displayPrice, formatMoney, formatUsd, parseMoney, percentOf } from './money';

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
  test('percent rounds to the cent', () => {
    expect(percentOf(4500, 15)).toBe(675);
    expect(percentOf(3333, 15)).toBe(500);
  });
});
