import { describe, expect, test } from 'vitest';
import {
  dateTimeFormat,
  formatCalendarDate,
  formatShopDateTime,
  formatShopDay,
  formatShopTime,
  formatShopWeekdayTime,
} from './date-time-format';

// 23:00 UTC on Friday 11 December 2026: 6 PM in New York, already Saturday in Berlin.
const at = '2026-12-11T23:00:00Z';

describe('one date and time format for the shop (en-US)', () => {
  test('a date and time, with the zone named when asked', () => {
    expect(formatShopDateTime(at, { timeZone: 'America/New_York', zoneName: true })).toBe('Fri, Dec 11, 2026, 6:00 PM EST');
    expect(formatShopDateTime(at, { timeZone: 'UTC', zoneName: true })).toBe('Fri, Dec 11, 2026, 11:00 PM UTC');
    expect(formatShopDateTime(new Date(at), { timeZone: 'UTC' })).toBe('Fri, Dec 11, 2026, 11:00 PM');
  });

  test('a time of day: 12-hour, minutes always two digits', () => {
    expect(formatShopTime(at, { timeZone: 'America/New_York' })).toBe('6:00 PM');
    expect(formatShopTime('2026-12-11T09:05:00Z', { timeZone: 'UTC', zoneName: true })).toBe('9:05 AM UTC');
    expect(formatShopTime(Date.parse('2026-12-11T00:30:00Z'), { timeZone: 'UTC' })).toBe('12:30 AM');
  });

  test('the zone by its usual short name: American ones, European ones, an offset where there is none', () => {
    expect(formatShopTime(at, { timeZone: 'America/Los_Angeles', zoneName: true })).toBe('3:00 PM PST');
    expect(formatShopTime('2031-05-17T12:00:00Z', { timeZone: 'Europe/Berlin', zoneName: true })).toBe('2:00 PM CEST');
    expect(formatShopTime('2031-05-17T12:00:00Z', { timeZone: 'Europe/London', zoneName: true })).toBe('1:00 PM BST');
    expect(formatShopTime(at, { timeZone: 'Asia/Kolkata', zoneName: true })).toBe('4:30 AM GMT+5:30');
  });

  test('the day is the one in the given zone', () => {
    expect(formatShopDay(at, { timeZone: 'America/New_York' })).toBe('Fri, Dec 11, 2026');
    expect(formatShopDay(at, { timeZone: 'Europe/Berlin' })).toBe('Sat, Dec 12, 2026');
  });

  test('a calendar date is written as it is, whatever the zone', () => {
    expect(formatCalendarDate('2026-12-09')).toBe('Wed, Dec 9, 2026');
    expect(formatCalendarDate('2027-01-01T00:00:00Z')).toBe('Fri, Jan 1, 2027');
  });

  test('a weekday and a time, joined by one space', () => {
    expect(formatShopWeekdayTime(at, { timeZone: 'America/New_York' })).toBe('Friday 6:00 PM');
    expect(formatShopWeekdayTime(at, { timeZone: 'Europe/Berlin', zoneName: true })).toBe('Saturday 12:00 AM CET');
  });

  test('only plain spaces, so the server and every browser write the same text', () => {
    for (const s of [formatShopDateTime(at), formatShopTime(at), formatShopWeekdayTime(at)]) expect(s).not.toMatch(/[\u202f\u00a0]/);
  });

  test('another locale keeps the same fields in its own order', () => {
    expect(formatShopDateTime(at, { timeZone: 'UTC', locale: 'en-GB' })).toBe('Fri, 11 Dec 2026, 23:00');
  });

  test('one formatter per locale and options is built and kept; a new zone gets its own', () => {
    const a = dateTimeFormat('en-US', { hour: 'numeric', timeZone: 'UTC' });
    expect(dateTimeFormat('en-US', { hour: 'numeric', timeZone: 'UTC' })).toBe(a);
    const tokyo = dateTimeFormat('en-US', { hour: 'numeric', timeZone: 'Asia/Tokyo' });
    expect(tokyo).not.toBe(a);
    expect(tokyo.resolvedOptions().timeZone).toBe('Asia/Tokyo');
  });
});
