import { describe, expect, test } from 'vitest';
import {
  editionBadgeText,
  editionNoticeText,
  editionPiecesText,
  editionRangeText,
  editionRestockText,
  editionRetiredText,
} from './edition-copy';

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

  test('the restock line names the edition the notice above it names', () => {
    expect(editionRestockText(3)).toBe(
      'Each piece is made to order and numbered. Once all 3 are made, this design is never produced again. A returned piece can come back on sale.',
    );
    expect(editionRestockText(50)).toContain('Once all 50 are made,');
    expect(editionRestockText(1)).toContain('Once it is made, this design is never produced again.');
    expect(editionRestockText(2_500)).toContain('Once all 2,500 are made,');
  });

  test("the drop mails' line says the product's own number", () => {
    expect(editionRetiredText(50)).toBe('Only 50 pieces will ever be made; once they are gone, the design is retired for good.');
    expect(editionRetiredText(3)).toBe('Only 3 pieces will ever be made; once they are gone, the design is retired for good.');
    expect(editionRetiredText(1)).toBe('Only 1 piece will ever be made; once it is gone, the design is retired for good.');
  });

  test('an edition in a list', () => {
    expect(editionPiecesText(50)).toBe('50 pieces');
    expect(editionPiecesText(1)).toBe('1 piece');
    expect(editionPiecesText(1_000)).toBe('1,000 pieces');
  });

  test('the editions of a list: one size, a range, none', () => {
    expect(editionRangeText([50, 50])).toBe('50 pieces');
    expect(editionRangeText([50, 3, 10])).toBe('3 to 50 pieces');
    expect(editionRangeText([1])).toBe('1 piece');
    expect(editionRangeText([1, 1_200])).toBe('1 to 1,200 pieces');
    expect(editionRangeText([])).toBeNull();
  });
});
