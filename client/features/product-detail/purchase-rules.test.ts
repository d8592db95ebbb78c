import { describe, expect, test } from 'vitest';
import {
  addToCartLabel,
  canAddToCart,
  clampQuantity,
  quantityMax,
  savingsCents,
} from './purchase-rules';

const black = { name: 'Black', value: '#000000' };
const tee = { name: 'Tee', price: '45.00', salePrice: null, inStock: true, stock: 10, sizes: ['S', 'M'], colors: [black] };

describe('product page purchase rules', () => {
  test('add to cart needs stock and a size when sizes exist', () => {
    expect(canAddToCart(tee, { size: null })).toBe(false);
    expect(canAddToCart(tee, { size: 'M' })).toBe(true);
    expect(canAddToCart(tee, { size: 'XXL' })).toBe(false);
    expect(canAddToCart({ ...tee, sizes: [] }, { size: null })).toBe(true);
    expect(canAddToCart({ ...tee, inStock: false }, { size: 'M' })).toBe(false);
    expect(canAddToCart({ ...tee, stock: 0 }, { size: 'M' })).toBe(false);
  });

  test('and a colour when there are several (the one colour is chosen for the shopper)', () => {
    const twoColours = { ...tee, colors: [black, { name: 'White', value: '#ffffff' }] };
    expect(canAddToCart(twoColours, { size: 'M', color: null })).toBe(false);
    expect(canAddToCart(twoColours, { size: 'M', color: 'White' })).toBe(true);
    expect(canAddToCart(tee, { size: 'M', color: null })).toBe(true);
  });

  test('label is Out of Stock or Add to Cart - $ unit × quantity', () => {
    expect(addToCartLabel(tee, 1)).toBe('Add to Cart - $45.00');
    expect(addToCartLabel(tee, 2)).toBe('Add to Cart - $90.00');
    expect(addToCartLabel({ ...tee, salePrice: '19.99' }, 3)).toBe('Add to Cart - $59.97');
    expect(addToCartLabel({ ...tee, inStock: false }, 2)).toBe('Out of Stock');
    expect(addToCartLabel({ ...tee, stock: 0 }, 1)).toBe('Out of Stock');
  });

  test('savings only when the sale price is lower', () => {
    expect(savingsCents({ price: '45.00', salePrice: '35.00' })).toBe(1000);
    expect(savingsCents({ price: '45.00', salePrice: null })).toBeNull();
    expect(savingsCents({ price: '45.00', salePrice: '45.00' })).toBeNull();
  });

  test('quantity never below 1', () => {
    expect(clampQuantity(0)).toBe(1);
    expect(clampQuantity(-3)).toBe(1);
    expect(clampQuantity(4)).toBe(4);
    expect(clampQuantity(Number.NaN)).toBe(1);
  });

  test('the stepper stops at the stock left and at the per-shopper limit, whichever is lower', () => {
    expect(quantityMax({ stock: 10, maxPerShopper: 2 })).toBe(2);
    expect(quantityMax({ stock: 1, maxPerShopper: 2 })).toBe(1);
    expect(quantityMax({ stock: 0, maxPerShopper: 2 })).toBe(1);
  });
});
