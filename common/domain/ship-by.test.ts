import { describe, expect, test } from 'vitest';
import { formatShopDate, isShipLate, shipByDate, shopClock } from './ship-by';

const NY = 'America/New_York';
// 2026-12-07 is a Monday.
const at = (iso: string) => new Date(iso);

describe('ship-by date', () => {
  test('in stock: two business days after the order day; a limited drop: three', () => {
    // Monday 10:00 in New York (15:00 UTC).
    expect(shipByDate(at('2026-12-07T15:00:00Z'), { limitedDrop: false, timeZone: NY })).toBe('2026-12-09');
    expect(shipByDate(at('2026-12-07T15:00:00Z'), { limitedDrop: true, timeZone: NY })).toBe('2026-12-10');
  });

  test('at or after 2 PM shop time the order counts from the next business day', () => {
    // Monday 13:59 and 14:00 in New York.
    expect(shipByDate(at('2026-12-07T18:59:00Z'), { limitedDrop: false, timeZone: NY })).toBe('2026-12-09');
    expect(shipByDate(at('2026-12-07T19:00:00Z'), { limitedDrop: false, timeZone: NY })).toBe('2026-12-10');
  });

  test('the cut-off is read in the shop time zone, not in UTC', () => {
    // 20:00 UTC Monday is 15:00 in New York (after the cut-off) but 05:00 Tuesday in Tokyo (before it).
    const placed = at('2026-12-07T20:00:00Z');
    expect(shipByDate(placed, { limitedDrop: false, timeZone: NY })).toBe('2026-12-10');
    expect(shipByDate(placed, { limitedDrop: false, timeZone: 'Asia/Tokyo' })).toBe('2026-12-10');
    expect(shipByDate(placed, { limitedDrop: false, timeZone: 'UTC' })).toBe('2026-12-10');
    // 10:00 UTC Monday: before the cut-off in UTC, 05:00 Monday in New York.
    expect(shipByDate(at('2026-12-07T10:00:00Z'), { limitedDrop: false, timeZone: 'UTC' })).toBe('2026-12-09');
  });

  test('weekends are skipped: Friday afternoon and Saturday orders count from Monday', () => {
    // Thursday 11:00 NY, in stock → Monday (Fri, Mon).
    expect(shipByDate(at('2026-12-10T16:00:00Z'), { limitedDrop: false, timeZone: NY })).toBe('2026-12-14');
    // Friday 15:00 NY → counts from Monday → Wednesday; a drop → Thursday.
    expect(shipByDate(at('2026-12-11T20:00:00Z'), { limitedDrop: false, timeZone: NY })).toBe('2026-12-16');
    expect(shipByDate(at('2026-12-11T20:00:00Z'), { limitedDrop: true, timeZone: NY })).toBe('2026-12-17');
    // Saturday and Sunday mornings count from Monday.
    expect(shipByDate(at('2026-12-12T14:00:00Z'), { limitedDrop: false, timeZone: NY })).toBe('2026-12-16');
    expect(shipByDate(at('2026-12-13T14:00:00Z'), { limitedDrop: true, timeZone: NY })).toBe('2026-12-17');
  });

  test('across a month and a year end', () => {
    // Wednesday 2026-12-30 16:00 NY → counts from Thursday → Mon Jan 4 (Fri Jan 1 is a business day here).
    expect(shipByDate(at('2026-12-30T21:00:00Z'), { limitedDrop: false, timeZone: NY })).toBe('2027-01-04');
  });

  test('shopClock reads the date and hour in the zone', () => {
    expect(shopClock(at('2026-12-08T03:30:00Z'), NY)).toEqual({ date: '2026-12-07', hour: 22 });
    expect(shopClock(at('2026-12-08T00:00:00Z'), 'UTC')).toEqual({ date: '2026-12-08', hour: 0 });
  });

  test('late: unshipped past the date; shipped, delivered and cancelled orders never are', () => {
    expect(isShipLate('2026-12-09', 'pending', '2026-12-10')).toBe(true);
    expect(isShipLate('2026-12-09', 'processing', '2026-12-10')).toBe(true);
    expect(isShipLate('2026-12-09', 'confirmed', '2026-12-09')).toBe(false);
    for (const status of ['shipped', 'delivered', 'cancelled']) expect(isShipLate('2026-12-09', status, '2026-12-20')).toBe(false);
    expect(isShipLate(null, 'pending', '2026-12-20')).toBe(false);
  });

  test('the date is written as the calendar date it is', () => {
    expect(formatShopDate('2026-12-09')).toBe('Wed, Dec 9, 2026');
  });
});
