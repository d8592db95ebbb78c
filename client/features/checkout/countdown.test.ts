import { describe, expect, test } from 'vitest';
import { formatCountdown } from './countdown';

describe('formatCountdown', () => {
  test('minutes and zero-padded seconds', () => {
    expect(formatCountdown(599_000)).toBe('9:59');
    expect(formatCountdown(600_000)).toBe('10:00');
    expect(formatCountdown(61_000)).toBe('1:01');
  });
  test('partial seconds round up; past deadlines read 0:00', () => {
    expect(formatCountdown(598_200)).toBe('9:59');
    expect(formatCountdown(1)).toBe('0:01');
    expect(formatCountdown(0)).toBe('0:00');
    expect(formatCountdown(-5_000)).toBe('0:00');
  });
});
