import { describe, expect, test } from 'vitest';
import {
  assertDrawTransition,
  canDrawTransition,
  drawSourcesOf,
  MAX_WINDOW_MS,
  scheduleProblem,
} from './draw-lifecycle';
import { IllegalTransitionError } from './lifecycle';

const HOUR = 3_600_000;

describe('draw and entry lifecycles', () => {
  test('a draw goes scheduled → open → closed → drawn → settled, never back', () => {
    expect(canDrawTransition('draw', 'scheduled', 'open')).toBe(true);
    expect(canDrawTransition('draw', 'open', 'closed')).toBe(true);
    expect(canDrawTransition('draw', 'closed', 'drawn')).toBe(true);
    expect(canDrawTransition('draw', 'drawn', 'settled')).toBe(true);
    expect(canDrawTransition('draw', 'drawn', 'open')).toBe(false);
    expect(canDrawTransition('draw', 'drawn', 'cancelled')).toBe(false);
    expect(canDrawTransition('draw', 'settled', 'drawn')).toBe(false);
    expect(() => assertDrawTransition('draw', 'settled', 'open')).toThrow(IllegalTransitionError);
  });

  test('an entry is selected only from confirmed or waiting, and wins only from selected', () => {
    expect(drawSourcesOf('entry', 'selected').sort()).toEqual(['confirmed', 'waiting']);
    expect(drawSourcesOf('entry', 'won')).toEqual(['selected']);
    expect(drawSourcesOf('entry', 'withdrawn').sort()).toEqual(['confirmed', 'pending']);
    expect(canDrawTransition('entry', 'pending', 'selected')).toBe(false);
    expect(canDrawTransition('entry', 'won', 'capture_failed')).toBe(false);
    expect(() => drawSourcesOf('entry', 'pending')).toThrow(IllegalTransitionError);
  });

  test('the schedule: close after open, draw at or after close, within 7 days of the opening', () => {
    const opensAtMs = 1_000 * HOUR;
    expect(scheduleProblem({ opensAtMs, closesAtMs: opensAtMs + HOUR, drawAtMs: opensAtMs + HOUR })).toBeNull();
    expect(scheduleProblem({ opensAtMs, closesAtMs: opensAtMs, drawAtMs: opensAtMs + HOUR })).toMatch(/close after/);
    expect(scheduleProblem({ opensAtMs, closesAtMs: opensAtMs + 2 * HOUR, drawAtMs: opensAtMs + HOUR })).toMatch(/before the entry window closes/);
    expect(scheduleProblem({ opensAtMs, closesAtMs: opensAtMs + MAX_WINDOW_MS, drawAtMs: opensAtMs + MAX_WINDOW_MS })).toBeNull();
    expect(scheduleProblem({ opensAtMs, closesAtMs: opensAtMs + MAX_WINDOW_MS, drawAtMs: opensAtMs + MAX_WINDOW_MS + 1 })).toMatch(/7 days/);
  });
});
