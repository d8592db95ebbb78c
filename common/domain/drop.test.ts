import { describe, expect, test } from 'vitest';
import { admissionCapacity, admissionRoom, dropPhase, estimateWaitSeconds, passRequired } from './drop';

const clock = { releaseAtMs: 1_000_000, raffleMs: 600_000, windowMs: 3_600_000 };

describe('drop phases', () => {
  test('not_open, raffle, open, ended, and sold_out inside the window', () => {
    expect(dropPhase(clock, 399_999, false)).toBe('not_open');
    expect(dropPhase(clock, 400_000, false)).toBe('raffle');
    expect(dropPhase(clock, 1_000_000, false)).toBe('open');
    expect(dropPhase(clock, 1_000_000, true)).toBe('sold_out');
    expect(dropPhase(clock, 4_600_000, false)).toBe('ended');
    expect(passRequired(clock, 999_999, false)).toBe(false);
    expect(passRequired(clock, 1_000_000, false)).toBe(true);
  });
});

describe('admission capacity', () => {
  test('free pieces times (1 + overbooking), rounded down; nothing free lets nobody in', () => {
    expect(admissionCapacity(50, 0.2)).toBe(60);
    expect(admissionCapacity(50, 0)).toBe(50);
    expect(admissionCapacity(7, 0.2)).toBe(8);
    expect(admissionCapacity(0, 0.2)).toBe(0);
    expect(admissionCapacity(-3, 0.2)).toBe(0);
  });

  test('live promises count against it; lapsed passes and shoppers who hold or bought do not', () => {
    const now = 100_000;
    const live = [
      { sessionId: 'a', admittedAtMs: 90_000 },
      { sessionId: 'b', admittedAtMs: 50_000 },
      { sessionId: 'c', admittedAtMs: 95_000 },
      { sessionId: 'lapsed', admittedAtMs: 10_000 },
    ];
    const room = admissionRoom({ freePieces: 3, overbooking: 0.2, passMs: 60_000, now, live, engaged: new Set(['c']) });
    // capacity floor(3.6) = 3; live promises a and b (c holds, lapsed is over).
    expect(room.room).toBe(1);
    expect(room.lapsesInMs).toEqual([10_000, 50_000]);
    expect(admissionRoom({ freePieces: 1, overbooking: 0, passMs: 60_000, now, live, engaged: new Set() }).room).toBe(0);
  });
});

describe('wait estimate', () => {
  test('from the real rate: 1 a minute is a minute a place, 6 a minute ten seconds', () => {
    expect(estimateWaitSeconds(1, 1, true)).toBe(60);
    expect(estimateWaitSeconds(3, 6, true)).toBe(30);
    expect(estimateWaitSeconds(1, 600, true)).toBe(1);
    expect(estimateWaitSeconds(5, 60, false)).toBeNull();
  });

  test('beyond the room a place also waits for passes to lapse; beyond those there is no honest figure', () => {
    const room = { room: 2, lapsesInMs: [30_000, 90_000] };
    expect(estimateWaitSeconds(2, 60, true, room)).toBe(2);
    expect(estimateWaitSeconds(3, 60, true, room)).toBe(31);
    expect(estimateWaitSeconds(4, 60, true, room)).toBe(91);
    expect(estimateWaitSeconds(5, 60, true, room)).toBeNull();
  });
});
