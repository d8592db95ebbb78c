import { describe, expect, it } from 'vitest';
import { productPayloadSchema, type ProductPayload } from '../../../common/contracts/admin';
import { productPatchOf } from './product-patch';

const payload: ProductPayload = productPayloadSchema.parse({
  name: 'Cap',
  description: 'A cap',
  price: '40',
  category: 'accessories',
  materials: 'Cotton',
  sustainabilityInfo: 'Made to order',
  stock: 12,
  images: ['/uploads/a.webp', '/uploads/b.webp'],
  colors: [{ name: 'Black', value: '#111111' }],
});

describe('productPatchOf', () => {
  it('names only the changed fields', () => {
    expect(productPatchOf(payload, { name: true }, 12)).toEqual({ name: 'Cap' });
  });

  it('sends nothing for fields touched back to clean (false entries)', () => {
    expect(productPatchOf(payload, { name: false, description: false }, 12)).toEqual({});
  });

  it('adds the loaded stock as expectedStock when the stock changed', () => {
    expect(productPatchOf(payload, { stock: true, price: true }, 9)).toEqual({ stock: 12, price: '40.00', expectedStock: 9 });
  });

  it('sends an array field whole when one item changed', () => {
    expect(productPatchOf(payload, { images: [false, true] }, 12)).toEqual({ images: ['/uploads/a.webp', '/uploads/b.webp'] });
    expect(productPatchOf(payload, { colors: [{ name: false, value: true }] }, 12)).toEqual({
      colors: [{ name: 'Black', value: '#111111' }],
    });
    expect(productPatchOf(payload, { images: [false, false] }, 12)).toEqual({});
  });
});
