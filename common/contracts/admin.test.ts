import { describe, expect, test } from 'vitest';
import { discountCodeCreateBody, productPayloadSchema, type ProductPayloadInput } from './admin';

const base: ProductPayloadInput = {
  name: 'Tee',
  description: 'A tee.',
  price: '45',
  category: 'hoodies',
  materials: 'Cotton',
  sustainabilityInfo: 'Made to order',
  stock: '7',
};

describe('productPayloadSchema', () => {
  test("an empty price reads 'Price is required' (not 'must be a number')", () => {
    const result = productPayloadSchema.safeParse({ ...base, price: '' });
    expect(result.success).toBe(false);
    expect(result.error!.issues.map((i) => i.message)).toEqual(['Price is required']);
    expect(productPayloadSchema.safeParse({ ...base, price: '  ' }).error!.issues[0]!.message).toBe(
      'Price is required',
    );
  });

  test('normalises money and stock, fills defaults and drops unknown fields', () => {
    const parsed = productPayloadSchema.parse({ ...base, salePrice: '', subcategory: ' ', extra: true });
    expect(parsed).toEqual({
      ...base,
      price: '45.00',
      salePrice: null,
      subcategory: null,
      stock: 7,
      releaseAt: null,
      inStock: true,
      isNew: false,
      isOnSale: false,
      nonReturnable: false,
      images: [],
      sizes: [],
      colors: [],
    });
    expect(productPayloadSchema.parse({ ...base, price: 99999999.99 }).price).toBe('99999999.99');
    expect(productPayloadSchema.parse({ ...base, price: '0.5' }).price).toBe('0.50');
  });

  test('accepts {name, hex} colours, drops repeated colours and sizes', () => {
    const parsed = productPayloadSchema.parse({
      ...base,
      sizes: ['S', 'S', 'XL'],
      colors: [
        { name: 'Navy', hex: '#1F2A44' },
        { name: 'Navy', value: '#000000' },
      ],
    });
    expect(parsed.sizes).toEqual(['S', 'XL']);
    expect(parsed.colors).toEqual([{ name: 'Navy', value: '#1F2A44' }]);
  });

  test('sizes must come from the category (hoodies have no XS)', () => {
    const result = productPayloadSchema.safeParse({ ...base, sizes: ['XS'] });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0].message).toMatch(
      /Sizes must come from the category's list \(S, M, L, XL, XXL\)/,
    );
  });
});

describe('discountCodeCreateBody', () => {
  test('upper-cases the code and defaults to a single use without expiry', () => {
    expect(discountCodeCreateBody.parse({ code: 'vip-10', discountPercent: 10 })).toEqual({
      code: 'VIP-10',
      discountPercent: 10,
      maxUsage: 1,
      expiresAt: null,
    });
    expect(
      discountCodeCreateBody.parse({
        code: 'VIP_X',
        discountPercent: 100,
        maxUsage: null,
        expiresAt: '2030-05-01T10:00:00+02:00',
      }),
    ).toMatchObject({
      maxUsage: null,
      expiresAt: '2030-05-01T08:00:00.000Z',
    });
  });
});
