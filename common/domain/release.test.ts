import { describe, expect, test } from 'vitest';
import {
  describeCountdown,
  formatCountdown,
  formatReleaseUtc,
  isReleased,
  msUntilRelease,
  releaseMessages,
  upcomingDrops,
} from './release';

const at = '2026-11-27T18:00:00.000Z';
const t = Date.parse(at);

describe('release', () => {
  test('no release time is on sale now', () => {
    expect(isReleased({ releaseAt: null }, 0)).toBe(true);
    expect(msUntilRelease({ releaseAt: null }, 0)).toBe(0);
  });

  test('before the release second it is not released; from that second on it is', () => {
    expect(isReleased({ releaseAt: at }, t - 1)).toBe(false);
    expect(isReleased({ releaseAt: at }, t)).toBe(true);
    expect(isReleased({ releaseAt: at }, new Date(t + 1))).toBe(true);
    expect(msUntilRelease({ releaseAt: at }, t - 1500)).toBe(1500);
    expect(msUntilRelease({ releaseAt: at }, t + 10)).toBe(0);
  });

  test('countdown with and without days, rounded up to the second', () => {
    const ms = ((2 * 24 + 4) * 3600 + 13 * 60 + 9) * 1000;
    expect(formatCountdown(ms)).toBe('Drops in 2d 04:13:09');
    expect(formatCountdown((4 * 3600 + 13 * 60 + 9) * 1000)).toBe('Drops in 04:13:09');
    expect(formatCountdown(1)).toBe('Drops in 00:00:01');
    expect(formatCountdown(999)).toBe('Drops in 00:00:01');
    expect(formatCountdown(0)).toBe('Drops in 00:00:00');
  });

  test('spoken countdown', () => {
    expect(describeCountdown(((2 * 24 + 4) * 3600 + 13 * 60 + 9) * 1000)).toBe('Drops in 2 days, 4 hours, 13 minutes');
    expect(describeCountdown(61_000)).toBe('Drops in 1 minute');
    expect(describeCountdown(5_000)).toBe('Drops in 5 seconds');
  });

  test('the refusal names the product and the time in UTC', () => {
    expect(formatReleaseUtc(at)).toBe('Fri, Nov 27, 2026, 6:00 PM UTC');
    expect(releaseMessages.notYet('Drop Tee', at)).toBe(
      "Drop Tee drops on Fri, Nov 27, 2026, 6:00 PM UTC. It can't be bought yet.",
    );
  });

  test('upcoming drops: only future releases, soonest first', () => {
    const list = [
      { id: 'a', releaseAt: '2026-12-01T00:00:00.000Z' },
      { id: 'b', releaseAt: null },
      { id: 'c', releaseAt: '2026-11-28T00:00:00.000Z' },
      { id: 'd', releaseAt: '2026-11-01T00:00:00.000Z' },
    ];
    expect(upcomingDrops(list, t).map((p) => p.id)).toEqual(['c', 'a']);
  });
});
