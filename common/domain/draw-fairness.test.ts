import { describe, expect, test } from 'vitest';
import {
  describeFairness,
  fairnessProblem,
  loyaltyWeight,
  normaliseFairness,
  pastOutcomeOf,
  type PastOutcome,
} from './draw-fairness';

describe('loyaltyWeight: 1 + losses in a row, most recent first, capped at the look-back', () => {
  test('a newcomer weighs 1', () => {
    expect(loyaltyWeight([], 3)).toBe(1);
  });
  test('each consecutive loss adds one', () => {
    expect(loyaltyWeight(['lost'], 3)).toBe(2);
    expect(loyaltyWeight(['lost', 'lost'], 3)).toBe(3);
    expect(loyaltyWeight(['lost', 'lost', 'lost'], 3)).toBe(4);
  });
  test('capped at K: older losses beyond the look-back do not count', () => {
    const five: PastOutcome[] = ['lost', 'lost', 'lost', 'lost', 'lost'];
    expect(loyaltyWeight(five, 1)).toBe(2);
    expect(loyaltyWeight(five, 2)).toBe(3);
    expect(loyaltyWeight(five, 5)).toBe(6);
  });
  test('a win (or a declined capture) ends the streak; only losses since count', () => {
    expect(loyaltyWeight(['won', 'lost', 'lost'], 3)).toBe(1);
    expect(loyaltyWeight(['lost', 'won', 'lost'], 3)).toBe(2);
    expect(loyaltyWeight(['lost', 'other', 'lost'], 3)).toBe(2);
    expect(loyaltyWeight(['other'], 3)).toBe(1);
  });
  test('statuses map to outcomes: only a plain loss is a loss', () => {
    expect(pastOutcomeOf('lost')).toBe('lost');
    expect(pastOutcomeOf('won')).toBe('won');
    expect(pastOutcomeOf('selected')).toBe('won');
    expect(pastOutcomeOf('capture_failed')).toBe('other');
    expect(pastOutcomeOf('waiting')).toBe('other');
  });
});

describe('the owner’s rule', () => {
  test('off needs no look-back; loyalty and sit_out need a whole 1–5', () => {
    expect(fairnessProblem({ rule: 'off' })).toBeNull();
    expect(fairnessProblem({ rule: 'off', lookback: 9 })).toBeNull();
    expect(fairnessProblem({ rule: 'loyalty', lookback: 1 })).toBeNull();
    expect(fairnessProblem({ rule: 'sit_out', lookback: 5 })).toBeNull();
    for (const lookback of [null, undefined, 0, 6, 2.5, Number.NaN]) {
      expect(fairnessProblem({ rule: 'loyalty', lookback })).toMatch(/1 to 5/);
    }
    expect(fairnessProblem({ rule: 'raffle', lookback: 2 })).toMatch(/off, loyalty or sit_out/);
  });
  test('off is stored without a look-back', () => {
    expect(normaliseFairness({ rule: 'off', lookback: 3 })).toEqual({ rule: 'off', lookback: null });
    expect(normaliseFairness({ rule: 'sit_out', lookback: 3 })).toEqual({ rule: 'sit_out', lookback: 3 });
  });
  test('in plain words on the public page', () => {
    expect(describeFairness({ rule: 'off', lookback: null })).toBeNull();
    expect(describeFairness({ rule: 'loyalty', lookback: 1 })).toBe(
      'Entrants who lost their last draw here count twice in this one; everyone else counts once.',
    );
    expect(describeFairness({ rule: 'loyalty', lookback: 2 })).toBe(
      'Entrants who lost their last 2 draws here count 3 times in this one (those who lost only their last draw count twice); everyone else counts once.',
    );
    expect(describeFairness({ rule: 'loyalty', lookback: 3 })).toContain(
      'lost their last 3 draws here count 4 times in this one (those who lost only their last draw count twice, only their last 2 draws count 3 times)',
    );
    expect(describeFairness({ rule: 'sit_out', lookback: 1 })).toBe(
      'Recent winners sit out: anyone who won the last draw here is not in this one.',
    );
    expect(describeFairness({ rule: 'sit_out', lookback: 4 })).toBe(
      'Recent winners sit out: anyone who won one of the last 4 draws here is not in this one.',
    );
  });
});
