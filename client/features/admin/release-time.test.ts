import { describe, expect, test } from 'vitest';
import { isoToLocalInput, localInputToIso } from './release-time';

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
