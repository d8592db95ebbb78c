import { describe, expect, test } from 'vitest';
import { formatDropLine, isoToLocalInput, localInputToIso } from './release-time';

describe('release time field', () => {
  test('local input and UTC instant round-trip; empty is none', () => {
    const iso = localInputToIso('2026-11-27T18:00');
    expect(iso).toMatch(/^2026-11-2[78]T\d{2}:00:00\.000Z$/);
    expect(new Date(iso).getHours()).toBe(18);
    expect(isoToLocalInput(iso)).toBe('2026-11-27T18:00');
    expect(localInputToIso('')).toBe('');
    expect(isoToLocalInput(null)).toBe('');
    expect(isoToLocalInput('nonsense')).toBe('');
  });
});

describe('admin release line', () => {
  test("names the release in the owner's zone, 'Drops' before it and 'Dropped' after", () => {
    const iso = localInputToIso('2099-11-27T18:00');
    expect(formatDropLine(iso, Date.parse('2099-01-01T00:00:00Z'))).toBe('Drops Fri, Nov 27, 2099, 6:00 PM');
    expect(formatDropLine(iso, Date.parse('2100-01-01T00:00:00Z'))).toMatch(/^Dropped Fri, Nov 27, 2099, 6:00 PM$/);
  });
});
