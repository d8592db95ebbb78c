import { describe, expect, test } from 'vitest';
import { formatLineOptions, formatLineOptionsShort, resolveVariant, variantDefaults } from './variant';

const black = { name: 'Black', value: '#000000' };
const white = { name: 'White', value: '#FFFFFF' };
const tee = { name: 'Tee', sizes: ['S', 'M', 'L'], colors: [black, white] };
const cap = { name: 'Cap', sizes: ['One Size'], colors: [black] };
const sticker = { name: 'Sticker', sizes: [], colors: [] };

describe('resolveVariant', () => {
  test('a product with several sizes and colours needs both, each one it offers', () => {
    expect(resolveVariant(tee, { size: 'M', color: 'White' })).toEqual({ ok: true, size: 'M', color: 'White' });
    expect(resolveVariant(tee, { color: 'Black' })).toEqual({ ok: false, field: 'size', message: 'Please select a size' });
    expect(resolveVariant(tee, { size: 'M' })).toEqual({ ok: false, field: 'color', message: 'Please select a colour' });
    expect(resolveVariant(tee, { size: 'XXL', color: 'Black' })).toEqual({
      ok: false,
      field: 'size',
      message: 'Size XXL is not available for Tee',
    });
    expect(resolveVariant(tee, { size: 'M', color: 'Red' })).toEqual({
      ok: false,
      field: 'color',
      message: 'Colour Red is not available for Tee',
    });
  });

  test("sizes match case-insensitively and come back in the product's spelling; colours by name or value", () => {
    expect(resolveVariant(tee, { size: ' m ', color: '#ffffff' })).toEqual({ ok: true, size: 'M', color: 'White' });
    expect(resolveVariant(tee, { size: 'l', color: 'black' })).toEqual({ ok: true, size: 'L', color: 'Black' });
  });

  test('exactly one size or colour is chosen for the shopper; blank counts as none', () => {
    expect(resolveVariant(cap, {})).toEqual({ ok: true, size: 'One Size', color: 'Black' });
    expect(resolveVariant(cap, { size: '  ', color: '' })).toEqual({ ok: true, size: 'One Size', color: 'Black' });
    expect(resolveVariant(cap, { size: 'M' })).toMatchObject({ ok: false, field: 'size' });
  });

  test('a product without sizes or colours takes none and refuses one', () => {
    expect(resolveVariant(sticker, { size: null, color: null })).toEqual({ ok: true, size: null, color: null });
    expect(resolveVariant(sticker, { size: 'M' })).toEqual({
      ok: false,
      field: 'size',
      message: 'Size M is not available for Sticker',
    });
    expect(resolveVariant(sticker, { color: 'Black' })).toMatchObject({ ok: false, field: 'color' });
  });

  test('variantDefaults names only what needs no choice', () => {
    expect(variantDefaults(tee)).toEqual({ size: null, color: null });
    expect(variantDefaults(cap)).toEqual({ size: 'One Size', color: 'Black' });
    expect(variantDefaults({ sizes: ['S', 'M'], colors: [black] })).toEqual({ size: null, color: 'Black' });
  });
});

describe('line options', () => {
  test('"Size · Color · Qty", leaving out what the line has not', () => {
    const line = { selectedSize: 'M', selectedColor: 'Black', quantity: 2 };
    expect(formatLineOptions(line)).toBe('Size: M · Color: Black');
    expect(formatLineOptions(line, { quantity: true })).toBe('Size: M · Color: Black · Qty: 2');
    expect(formatLineOptions({ selectedSize: null, selectedColor: 'Black' })).toBe('Color: Black');
    expect(formatLineOptions({ selectedSize: null, selectedColor: null, quantity: 1 }, { quantity: true })).toBe('Qty: 1');
    expect(formatLineOptions({ selectedSize: null, selectedColor: null })).toBe('');
  });

  test('the short form', () => {
    expect(formatLineOptionsShort({ selectedSize: 'M', selectedColor: 'Black' })).toBe('M, Black');
    expect(formatLineOptionsShort({ selectedSize: null, selectedColor: 'Black' })).toBe('Black');
    expect(formatLineOptionsShort({ selectedSize: null, selectedColor: null })).toBe('');
  });
});
