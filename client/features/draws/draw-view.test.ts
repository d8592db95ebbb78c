import { describe, expect, test } from 'vitest';
import type { DrawEntryView } from '../../../common/contracts/draws';
import {
  authorisedNotChargedText,
  drawOwnsPurchase,
  drawPhase,
  entryAmount,
  entryOutcome,
  findRank,
  NEVER_CHARGED,
  parsePublicId,
  secondSizeOptions,
} from './draw-view';

const window = { opensAt: '2030-01-01T10:00:00.000Z', closesAt: '2030-01-02T10:00:00.000Z' };
const at = (iso: string) => Date.parse(iso);

describe('drawPhase', () => {
  test('a scheduled or open draw turns by the clock: before, during and after its window', () => {
    for (const status of ['scheduled', 'open'] as const) {
      expect(drawPhase({ ...window, status }, at('2030-01-01T09:59:59.999Z'))).toBe('upcoming');
      expect(drawPhase({ ...window, status }, at('2030-01-01T10:00:00.000Z'))).toBe('open');
      expect(drawPhase({ ...window, status }, at('2030-01-02T09:59:59.999Z'))).toBe('open');
      expect(drawPhase({ ...window, status }, at('2030-01-02T10:00:00.000Z'))).toBe('closed');
    }
  });

  test('what the server did wins over the clock once the window is over', () => {
    const during = at('2030-01-01T12:00:00.000Z');
    expect(drawPhase({ ...window, status: 'closed' }, during)).toBe('closed');
    expect(drawPhase({ ...window, status: 'drawn' }, during)).toBe('result');
    expect(drawPhase({ ...window, status: 'settled' }, during)).toBe('result');
    expect(drawPhase({ ...window, status: 'cancelled' }, during)).toBe('cancelled');
  });
});

test('the draw holds the purchase controls until it has run; settled and cancelled give them back', () => {
  expect(
    ['scheduled', 'open', 'closed', 'drawn', 'settled', 'cancelled'].filter((status) =>
      drawOwnsPurchase({ status: status as never }),
    ),
  ).toEqual(['scheduled', 'open', 'closed', 'drawn']);
});

describe('entryOutcome', () => {
  const entry: Pick<
    DrawEntryView,
    'status' | 'drawStatus' | 'orderNumber' | 'allocatedSize' | 'productName' | 'amount' | 'removedReason'
  > = {
    status: 'confirmed',
    drawStatus: 'open',
    orderNumber: null,
    allocatedSize: null,
    productName: 'Night Shift Hoodie',
    amount: '120.00',
    removedReason: null,
  };

  test('a confirmed entry says the card is authorised, not charged, with the amount', () => {
    const o = entryOutcome(entry);
    expect(o.title).toBe('Your entry is confirmed.');
    expect(o.lines).toEqual([
      '$120.00 is authorised on your card, not charged. It is charged only if your entry wins.',
    ]);
  });

  test('a win names the order and the size', () => {
    const o = entryOutcome({
      ...entry,
      status: 'won',
      drawStatus: 'settled',
      orderNumber: 'FIFTY-1234',
      allocatedSize: 'M',
    });
    expect(o.tone).toBe('won');
    expect(o.lines).toContain('Order number: FIFTY-1234.');
    expect(o.lines[0]).toBe('Night Shift Hoodie in M is yours.');
  });

  test('every way of not winning says the card was never charged', () => {
    for (const status of ['lost', 'capture_failed', 'removed', 'lapsed', 'withdrawn', 'cancelled'] as const) {
      expect(entryOutcome({ ...entry, status, drawStatus: 'settled' }).lines, status).toContain(
        NEVER_CHARGED,
      );
    }
    expect(entryOutcome({ ...entry, drawStatus: 'cancelled' }).lines).toEqual([NEVER_CHARGED]);
    expect(entryOutcome({ ...entry, status: 'won' }).lines).not.toContain(NEVER_CHARGED);
  });

  test('a removed entry shows the recorded reason', () => {
    const reason = 'Removed before the draw: the same card as entry ab12, confirmed earlier.';
    expect(entryOutcome({ ...entry, status: 'removed', removedReason: reason }).lines[0]).toBe(reason);
  });
});

test('a pasted public id is trimmed and lower-cased; anything else is refused', () => {
  const id = '0123456789abcdef0123456789abcdef';
  expect(parsePublicId(`  ${id.toUpperCase()} `)).toBe(id);
  expect(parsePublicId(id.slice(1))).toBeNull();
  expect(parsePublicId(`${id.slice(1)}g`)).toBeNull();
});

test('findRank finds the visitor in the published list', () => {
  const entries = [
    { publicId: 'a', weight: 1, size: 'M', secondSize: null, rank: 1, outcome: 'won' },
    { publicId: 'b', weight: 1, size: 'L', secondSize: 'M', rank: 2, outcome: 'lost' },
  ];
  expect(findRank({ entries }, 'b')?.rank).toBe(2);
  expect(findRank({ entries }, 'c')).toBeNull();
});

test('the second choice never offers the first', () => {
  expect(secondSizeOptions(['S', 'M', 'L'], 'M')).toEqual(['S', 'L']);
  expect(secondSizeOptions(['S', 'M'], null)).toEqual(['S', 'M']);
});

describe('the amount an entry authorises', () => {
  const settings = {
    freeShippingThreshold: '60.00',
    taxRate: 0,
    shippingRates: [
      { id: 'standard' as const, label: 'Standard Shipping', price: '8.99', days: '3-5 business days' },
      { id: 'express' as const, label: 'Express Shipping', price: '15.99', days: '1-2 business days' },
      {
        id: 'international' as const,
        label: 'International Shipping',
        price: '24.99',
        days: '7-14 business days',
      },
    ],
  };

  test('the piece plus shipping to the country, as the checkout computes it', () => {
    expect(entryAmount('45.00', 'US', settings)).toMatchObject({
      subtotal: 4500,
      shipping: 899,
      total: 5399,
    });
    expect(entryAmount('45.00', 'GB', settings)).toMatchObject({ shipping: 2499, total: 6999 });
    expect(entryAmount('120.00', 'US', settings)).toMatchObject({ shipping: 0, total: 12000 });
    expect(entryAmount('100.00', 'US', { ...settings, taxRate: 0.1 })).toMatchObject({
      tax: 1000,
      total: 11000,
    });
  });

  test('the line says authorised, not charged, with each part', () => {
    expect(authorisedNotChargedText({ subtotal: 4500, shipping: 899, tax: 0, total: 5399 })).toBe(
      'Your card is authorised for $53.99 (the piece $45.00, shipping $8.99) when you confirm your entry by e-mail, not charged. It is charged only if your entry wins; otherwise the authorisation is released after the draw.',
    );
    expect(authorisedNotChargedText({ subtotal: 12000, shipping: 0, tax: 600, total: 12600 })).toContain(
      '(the piece $120.00, free shipping, tax $6.00)',
    );
  });
});
