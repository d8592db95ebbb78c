import { describe, expect, test } from 'vitest';
import { totalsSchema } from '../contracts/checkout';
import {
  amountMatches,
  computeTotals,
  itemCount,
  lineTotalCents,
  pricedLine,
  subtotalCents,
  totalsToWire,
  unitPriceCents,
  type TotalsInput,
} from './pricing';

const base: TotalsInput = {
  lines: [
    { unitPriceCents: 4500, quantity: 1 },
    { unitPriceCents: 1250, quantity: 2 },
  ],
  discount: null,
  shippingMethod: 'standard',
  shippingRateCents: 899,
  freeShippingThresholdCents: 6000,
  taxRate: 0,
};

describe('pricing', () => {
  test('sale price wins over price', () => {
    expect(unitPriceCents({ price: '45.00', salePrice: '35.50' })).toBe(3550);
    expect(unitPriceCents({ price: '45.00', salePrice: null })).toBe(4500);
  });

  test('subtotal and item count', () => {
    expect(subtotalCents(base.lines)).toBe(7000);
    expect(itemCount(base.lines)).toBe(3);
  });

  test('free shipping above the threshold, tax 0 by default', () => {
    const t = computeTotals(base);
    expect(t).toMatchObject({
      subtotal: 7000,
      discountAmount: 0,
      shipping: 0,
      tax: 0,
      total: 7000,
      freeShippingEligible: true,
      amountToFreeShipping: 0,
    });
  });

  test('the discount counts against the threshold and the tax base', () => {
    const t = computeTotals({ ...base, discount: { code: 'FALL15', percent: 15 }, taxRate: 0.1 });
    // 7000 − 1050 = 5950 < 6000: shipping is charged; tax on 5950.
    expect(t).toMatchObject({
      discountAmount: 1050,
      shipping: 899,
      tax: 595,
      total: 5950 + 899 + 595,
      amountToFreeShipping: 50,
    });
    expect(t.discountCode).toBe('FALL15');
  });

  test('express is charged even when free shipping applies', () => {
    expect(computeTotals({ ...base, shippingMethod: 'express', shippingRateCents: 1599 }).shipping).toBe(
      1599,
    );
  });

  test('a 100 % code leaves only shipping', () => {
    const t = computeTotals({ ...base, discount: { code: 'ALL', percent: 100 } });
    expect(t.total).toBe(899);
  });

  test('wire shape matches the contract with two decimals', () => {
    const wire = totalsToWire(computeTotals({ ...base, lines: [{ unitPriceCents: 1999, quantity: 1 }] }));
    expect(totalsSchema.parse(wire)).toEqual(wire);
    expect(wire).toMatchObject({
      subtotal: '19.99',
      shipping: '8.99',
      total: '28.98',
      amountToFreeShipping: '40.01',
      freeShippingThreshold: '60.00',
    });
  });

  test('client amounts match within a cent', () => {
    expect(amountMatches(28.98, 2898)).toBe(true);
    expect(amountMatches(28.97, 2898)).toBe(true);
    expect(amountMatches(28.9, 2898)).toBe(false);
    expect(amountMatches(0.1 + 0.2, 30)).toBe(true);
  });
});

describe('pricedLine', () => {
  test('a cart line costs its sale price when there is one, times its quantity', () => {
    const line = (price: string, salePrice: string | null, quantity: number) => ({ quantity, product: { price, salePrice } });
    expect(pricedLine(line('45.00', null, 2))).toEqual({ unitPriceCents: 4500, quantity: 2 });
    expect(lineTotalCents(pricedLine(line('45.00', '35.50', 3)))).toBe(10650);
    expect(subtotalCents([line('0.10', null, 3), line('0.20', null, 1)].map(pricedLine))).toBe(50);
    expect(itemCount([line('1.00', null, 2), line('1.00', null, 3)])).toBe(5);
  });
});
