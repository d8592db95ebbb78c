import { describe, expect, test } from 'vitest';
import {
  amountToFreeShipping,
  availableShippingMethods,
  formatThreshold,
  freeShippingApplies,
  isDomestic,
  isFreeShippingEligible,
  resolveShippingMethod,
  shippingCostCents,
} from './shipping';

describe('shipping', () => {
  test('US gets standard by default and may choose express; elsewhere is international', () => {
    expect(resolveShippingMethod('US')).toBe('standard');
    expect(resolveShippingMethod('us', 'express')).toBe('express');
    expect(resolveShippingMethod('US', 'international')).toBe('standard');
    expect(resolveShippingMethod(null)).toBe('standard');
    expect(resolveShippingMethod('DE')).toBe('international');
    expect(resolveShippingMethod('CA', 'express')).toBe('international');
    expect(availableShippingMethods('US')).toEqual(['standard', 'express']);
    expect(availableShippingMethods('FR')).toEqual(['international']);
  });

  test('zones follow the home country: a shop in the UK ships domestic to GB and international to the US', () => {
    expect(isDomestic('gb', 'GB')).toBe(true);
    expect(isDomestic(null, 'GB')).toBe(true);
    expect(isDomestic('US', 'GB')).toBe(false);
    expect(resolveShippingMethod('GB', 'express', 'GB')).toBe('express');
    expect(resolveShippingMethod('US', 'express', 'GB')).toBe('international');
    expect(availableShippingMethods('FR', 'FR')).toEqual(['standard', 'express']);
    expect(availableShippingMethods('US', 'FR')).toEqual(['international']);
  });

  test('free shipping at the threshold and above ("$60 and above")', () => {
    expect(isFreeShippingEligible(5999, 6000)).toBe(false);
    expect(isFreeShippingEligible(6000, 6000)).toBe(true);
    expect(isFreeShippingEligible(0, 0)).toBe(false);
    expect(amountToFreeShipping(4500, 6000)).toBe(1500);
    expect(amountToFreeShipping(7000, 6000)).toBe(0);
  });

  test('only domestic standard is waived when eligible; express and international are always charged', () => {
    const base = { rateCents: 899, thresholdCents: 6000 };
    expect(shippingCostCents({ ...base, method: 'standard', merchandiseCents: 5999 })).toBe(899);
    expect(shippingCostCents({ ...base, method: 'standard', merchandiseCents: 6000 })).toBe(0);
    expect(
      shippingCostCents({ ...base, method: 'international', rateCents: 2499, merchandiseCents: 8000 }),
    ).toBe(2499);
    expect(freeShippingApplies('standard')).toBe(true);
    expect(freeShippingApplies('international')).toBe(false);
    expect(shippingCostCents({ ...base, method: 'express', rateCents: 1599, merchandiseCents: 8000 })).toBe(
      1599,
    );
    // A 100 % code still pays for the parcel.
    expect(shippingCostCents({ ...base, method: 'standard', merchandiseCents: 0 })).toBe(899);
  });
});

describe('formatThreshold', () => {
  test('whole dollars drop the cents; anything else keeps them', () => {
    expect(formatThreshold('60.00')).toBe('$60');
    expect(formatThreshold('60')).toBe('$60');
    expect(formatThreshold('62.50')).toBe('$62.50');
    expect(formatThreshold('75.5')).toBe('$75.50');
    expect(formatThreshold('0.99')).toBe('$0.99');
    expect(formatThreshold('8.99')).toBe('$8.99');
  });
});
