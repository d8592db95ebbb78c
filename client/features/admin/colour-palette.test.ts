import { expect, test } from 'vitest';
import { adminColorPalette } from '../../../common/contracts/admin';
import { addColour, removeColour } from './colour-palette';

test('the palette has the 12 colours of docs/product.md §3 with hex values', () => {
  expect(adminColorPalette.map((c) => c.name)).toEqual([
    'Black',
    'White',
    'Grey',
    'Charcoal',
    'Navy',
    'Forest Green',
    'Ocean Blue',
    'Sunset Orange',
    'Steel Grey',
    'Midnight Black',
    'Natural Bamboo',
    'Black Stain',
  ]);
  for (const c of adminColorPalette) expect(c.value).toMatch(/^#[0-9A-F]{6}$/);
});

test('adding a present colour is ignored; removing drops it', () => {
  const black = adminColorPalette[0]!;
  const once = addColour([], black);
  expect(addColour(once, black)).toEqual([black]);
  expect(removeColour(once, 'Black')).toEqual([]);
});
