import { describe, expect, test } from 'vitest';
import {
  assertDrawTransition,
  canDrawTransition,
  drawHasRun,
  drawSourcesOf,
  drawTakesEntries,
  ENTRY_IN_PLAY,
  ENTRY_RELEASED,
  FINAL_ENTRY_RESULTS,
  isEntryChangeable,
  MAX_WINDOW_MS,
  scheduleProblem,
  WINNING_ENTRY,
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

  test('a card is captured only through a claim, and a declined claim goes back to be released', () => {
    expect(drawSourcesOf('authorisation', 'capturing')).toEqual(['authorised']);
    expect(drawSourcesOf('authorisation', 'captured')).toEqual(['capturing']);
    expect(drawSourcesOf('authorisation', 'voided').sort()).toEqual(['authorised', 'prepared']);
    expect(canDrawTransition('authorisation', 'capturing', 'authorised')).toBe(true);
    expect(canDrawTransition('authorisation', 'capturing', 'voided')).toBe(false);
    expect(canDrawTransition('authorisation', 'captured', 'voided')).toBe(false);
  });

  test('the status questions: run, taking entries, changeable, still in play, released, mailed', () => {
    expect(['drawn', 'settled'].every(drawHasRun)).toBe(true);
    expect(['scheduled', 'open', 'closed', 'cancelled'].some(drawHasRun)).toBe(false);
    expect(['scheduled', 'open'].every(drawTakesEntries)).toBe(true);
    expect(drawTakesEntries('closed')).toBe(false);
    expect(isEntryChangeable('pending') && isEntryChangeable('confirmed')).toBe(true);
    expect(isEntryChangeable('withdrawn')).toBe(false);
    // Every entry status is either still in play or final for the draw (released, or won).
    for (const s of ['pending', 'confirmed', 'withdrawn', 'lapsed', 'removed', 'selected', 'waiting', 'won', 'capture_failed', 'lost', 'cancelled'] as const)
      expect(ENTRY_IN_PLAY.includes(s) !== (ENTRY_RELEASED.includes(s) || s === 'won')).toBe(true);
    // Withdrawn entrants left on their own and cancelled draws are not mailed a result.
    expect(FINAL_ENTRY_RESULTS).not.toContain('withdrawn');
    expect(FINAL_ENTRY_RESULTS).not.toContain('cancelled');
    // A recent winner is one charged or being charged: both are out of play and not released.
    for (const s of WINNING_ENTRY) expect(ENTRY_IN_PLAY.includes(s) || s === 'won').toBe(true);
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
