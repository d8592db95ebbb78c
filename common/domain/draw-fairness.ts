// Fair over time (docs/draw.md, "Fair over time"; ADR 018): an owner's rule, per draw, that looks at the
// shop's earlier draws. An entrant is recognised across draws by the keyed hash of their folded mailbox
// (ADR 013) that every entry already stores; nothing else about a person is compared.
//
//   off      every entry weighs 1 (the default)
//   loyalty  an entrant who lost the most recent draws they took part in here gets weight
//            1 + (how many of those losses come in a row, most recent first), capped at the look-back K:
//            with K = 2, a loss last time counts twice, two losses in a row count 3 times
//   sit_out  an entrant who won any of the shop's last K draws is removed before this draw, the reason
//            recorded like a duplicate's
//
// The weights are worked out when the draw runs, stored on each entry and published with the ranking, so
// the published list alone is enough to recompute the order (scripts/verify-draw.mjs).

export const DRAW_FAIRNESS_RULES = ['off', 'loyalty', 'sit_out'] as const;
export type DrawFairnessRule = (typeof DRAW_FAIRNESS_RULES)[number];

/** The look-back K: how many earlier draws the rule considers. */
export const FAIRNESS_LOOKBACK_MIN = 1;
export const FAIRNESS_LOOKBACK_MAX = 5;

export interface DrawFairness {
  rule: DrawFairnessRule;
  /** K, 1–5, for `loyalty` and `sit_out`; null when the rule is `off`. */
  lookback: number | null;
}

export const NO_FAIRNESS: DrawFairness = { rule: 'off', lookback: null };

/** What an owner asked for, checked: a message for the 400, or null when it is a valid rule. */
export function fairnessProblem(f: { rule: string; lookback?: number | null }): string | null {
  if (!(DRAW_FAIRNESS_RULES as readonly string[]).includes(f.rule)) {
    return 'The fairness rule must be off, loyalty or sit_out.';
  }
  if (f.rule === 'off') return null;
  const k = f.lookback;
  if (
    k === null ||
    k === undefined ||
    !Number.isInteger(k) ||
    k < FAIRNESS_LOOKBACK_MIN ||
    k > FAIRNESS_LOOKBACK_MAX
  ) {
    return `Choose how many earlier draws count: a whole number from ${FAIRNESS_LOOKBACK_MIN} to ${FAIRNESS_LOOKBACK_MAX}.`;
  }
  return null;
}

/** The stored form of a valid rule: `off` carries no look-back. */
export function normaliseFairness(f: { rule: DrawFairnessRule; lookback?: number | null }): DrawFairness {
  return f.rule === 'off' ? NO_FAIRNESS : { rule: f.rule, lookback: f.lookback ?? null };
}

/**
 * How an entrant's earlier draw ended for them: `lost` (ranked, not drawn), `won` (drawn: charged, or
 * being charged), or `other` (drawn but the card was declined, or still waiting as an alternate while that
 * draw is being settled). Only `lost` extends a losing streak; anything else ends it, so nobody gets a
 * bonus for a draw whose result is not a plain loss.
 */
export type PastOutcome = 'won' | 'lost' | 'other';

/** An entry's status in an earlier draw it was ranked in, as a PastOutcome. */
export function pastOutcomeOf(status: string): PastOutcome {
  if (status === 'lost') return 'lost';
  if (status === 'won' || status === 'selected') return 'won';
  return 'other';
}

/**
 * The loyalty weight: 1 + the number of losses in a row at the start of `history` (the entrant's earlier
 * draws here, most recent first), counting at most `lookback` of them. An entrant new to the shop weighs 1.
 */
export function loyaltyWeight(history: readonly PastOutcome[], lookback: number): number {
  let streak = 0;
  for (const outcome of history.slice(0, lookback)) {
    if (outcome !== 'lost') break;
    streak++;
  }
  return 1 + streak;
}

const TIMES = ['', 'once', 'twice'];
const times = (n: number) => TIMES[n] ?? `${n} times`;
const draws = (n: number) => (n === 1 ? 'draw' : `${n} draws`);

/**
 * The rule in force, in plain words for the public draw page (null when off): "Entrants who lost their
 * last 2 draws here count 3 times…".
 */
export function describeFairness(f: DrawFairness): string | null {
  if (f.rule === 'off' || f.lookback === null) return null;
  const k = f.lookback;
  if (f.rule === 'sit_out') {
    return k === 1
      ? 'Recent winners sit out: anyone who won the last draw here is not in this one.'
      : `Recent winners sit out: anyone who won one of the last ${k} draws here is not in this one.`;
  }
  if (k === 1) {
    return 'Entrants who lost their last draw here count twice in this one; everyone else counts once.';
  }
  const steps = [];
  for (let n = 1; n < k; n++) steps.push(`their last ${draws(n)} count ${times(n + 1)}`);
  return (
    `Entrants who lost their last ${k} draws here count ${times(k + 1)} in this one ` +
    `(those who lost only ${steps.join(', only ')}); everyone else counts once.`
  );
}
