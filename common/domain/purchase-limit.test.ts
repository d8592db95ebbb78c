import { describe, expect, test } from 'vitest';
import {
  cooldownMessage,
  DEFAULT_MAX_PER_SHOPPER,
  holdCooldownMs,
  limitNote,
  overLimitMessage,
  withinLimit,
} from './purchase-limit';

describe('purchase limit', () => {
  test('the default is 2 per product', () => {
    expect(DEFAULT_MAX_PER_SHOPPER).toBe(2);
  });

  test('the over-limit message names the limit, singular and plural', () => {
    expect(overLimitMessage('Hoodie Nº 7', 2)).toBe('You can buy at most 2 of Hoodie Nº 7 per shopper.');
    expect(overLimitMessage('Hoodie Nº 7', 1)).toBe('You can buy only 1 of Hoodie Nº 7 per shopper.');
    expect(limitNote(2)).toBe('Limit 2 per customer');
  });

  test('units fit up to and including the limit', () => {
    expect(withinLimit(1, 1, 2)).toBe(true);
    expect(withinLimit(1, 2, 2)).toBe(false);
    expect(withinLimit(0, 3, 2)).toBe(false);
  });

  test('the cooldown lasts a hold and says when to try again, rounded up to the minute', () => {
    expect(holdCooldownMs(10)).toBe(600_000);
    expect(cooldownMessage('Tee', 61_000)).toBe(
      'Your hold on Tee ran out, so it went back to other shoppers first. You can try again in 2 minutes.',
    );
    expect(cooldownMessage('Tee', 5_000)).toMatch(/try again in 1 minute\.$/);
  });
});
