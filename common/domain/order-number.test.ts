import { describe, expect, test } from 'vitest';
import { generateOrderNumber, isOrderNumber, ORDER_NUMBER_ALPHABET } from './order-number';

describe('order numbers', () => {
  test('look like FIFTY-XXXX-XXXX without ambiguous characters', () => {
    for (let i = 0; i < 200; i++) {
      const n = generateOrderNumber();
      expect(n).toMatch(/^FIFTY-[A-Z2-9]{4}-[A-Z2-9]{4}$/);
      expect(n.slice(6)).not.toMatch(/[01IO]/);
      expect(isOrderNumber(n)).toBe(true);
    }
  });

  test('are unguessable: a thousand draws never repeat', () => {
    const seen = new Set(Array.from({ length: 1000 }, () => generateOrderNumber()));
    expect(seen.size).toBe(1000);
  });

  test('map every byte onto the 32-letter alphabet', () => {
    expect(ORDER_NUMBER_ALPHABET).toHaveLength(32);
    expect(generateOrderNumber(() => new Uint8Array([0, 1, 2, 3, 31, 32, 255, 64]))).toBe('FIFTY-2345-Z2Z2');
  });

  test('rejects look-alikes', () => {
    expect(isOrderNumber('FIFTY-0000-1111')).toBe(false);
    expect(isOrderNumber('fifty-7k3q-9xz2')).toBe(false);
    expect(isOrderNumber('FIFTY-7K3Q-9XZ2')).toBe(true);
  });
});
