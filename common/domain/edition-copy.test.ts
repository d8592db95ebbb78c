import { describe, expect, test } from 'vitest';
import { editionBadgeText, editionNoticeText } from './edition-copy';

describe('edition copy', () => {
  test('the default edition of 50 keeps the spec words exactly', () => {
    expect(editionBadgeText(50)).toBe('LIMITED EDITION - Only 50 Made');
    expect(editionNoticeText(50)).toBe('Only 50 pieces will ever be made');
  });

  test('other edition sizes say their own number', () => {
    expect(editionBadgeText(10)).toBe('LIMITED EDITION - Only 10 Made');
    expect(editionNoticeText(250)).toBe('Only 250 pieces will ever be made');
    expect(editionBadgeText(10_000)).toBe('LIMITED EDITION - Only 10,000 Made');
    expect(editionNoticeText(10_000)).toBe('Only 10,000 pieces will ever be made');
  });

  test('a one-off is one piece', () => {
    expect(editionBadgeText(1)).toBe('LIMITED EDITION - Only 1 Made');
    expect(editionNoticeText(1)).toBe('Only 1 piece will ever be made');
  });
});
