import { describe, expect, test } from 'vitest';
import { mapLimit } from './map-limit';

describe('mapLimit', () => {
  test('keeps the input order and never has more than `limit` calls in flight', async () => {
    let inFlight = 0;
    let most = 0;
    const out = await mapLimit([5, 1, 4, 2, 3, 0], 2, async (n) => {
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((r) => setTimeout(r, n));
      inFlight--;
      return n * 10;
    });
    expect(out).toEqual([50, 10, 40, 20, 30, 0]);
    expect(most).toBe(2);
  });

  test('an empty list, and a limit below one still runs one at a time', async () => {
    expect(await mapLimit([], 3, async (n: number) => n)).toEqual([]);
    expect(await mapLimit([1, 2], 0, async (n) => n + 1)).toEqual([2, 3]);
  });
});
