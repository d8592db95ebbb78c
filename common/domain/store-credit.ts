// Store credit, kept like money (docs/product.md "Store credit"): a ledger of grants, each valid one year,
// spent oldest-expiring first. Pure rules shared by the store-credit module and the storefront; the ledger's
// rows live in server/modules/store-credit. Integer cents throughout (ADR 016).
import { lifecycleRules, type Lifecycle } from './lifecycle';

export { IllegalTransitionError } from './lifecycle';

/** What a ledger entry records: credit given, credit taken by a checkout, credit run out, credit given back by a checkout. */
export const CREDIT_ENTRY_KINDS = ['grant', 'redemption', 'expiry', 'release'] as const;
export type CreditEntryKind = (typeof CREDIT_ENTRY_KINDS)[number];

/** Where a grant came from: a return, a cancellation or goodwill refund paid as credit, or the owner by hand. */
export const CREDIT_GRANT_SOURCES = ['return', 'cancellation', 'refund', 'manual'] as const;
export type CreditGrantSource = (typeof CREDIT_GRANT_SOURCES)[number];

/**
 * A redemption is `held` by a checkout while its payment is open, `spent` once the order exists, or `released`
 * (the payment failed or was abandoned: the credit is back on the grants it came from). Both ends are final.
 */
export const REDEMPTION_STATUSES = ['held', 'spent', 'released'] as const;
export type RedemptionStatus = (typeof REDEMPTION_STATUSES)[number];

export const STORE_CREDIT_LIFECYCLES = {
  redemption: {
    held: ['spent', 'released'],
    spent: [],
    released: [],
  } satisfies Lifecycle<RedemptionStatus>,
} as const;

const rules = lifecycleRules(STORE_CREDIT_LIFECYCLES);
export const canRedemption = (from: string, to: RedemptionStatus) => rules.can('redemption', from, to);
export const assertRedemption = (from: string, to: RedemptionStatus) => rules.assert('redemption', from, to);
export const redemptionSourcesOf = (to: RedemptionStatus) => rules.sourcesOf('redemption', to);

/** The refund policy: "Refund is store credit only, valid 1 year". */
export const CREDIT_VALIDITY_YEARS = 1;

/** When a grant made at `grantedAtMs` runs out: the same instant one calendar year later (29 Feb → 1 Mar). */
export function creditExpiresAt(grantedAtMs: number): Date {
  const d = new Date(grantedAtMs);
  d.setUTCFullYear(d.getUTCFullYear() + CREDIT_VALIDITY_YEARS);
  return d;
}

/** A grant as the rules see it: what is left of it and when it runs out. */
export interface GrantLeft {
  id: string;
  leftCents: number;
  expiresAtMs: number;
}

/** Whether a grant still counts at `nowMs` (a grant is spendable strictly before its expiry). */
export const isLive = (g: Pick<GrantLeft, 'expiresAtMs'>, nowMs: number): boolean => g.expiresAtMs > nowMs;

/** The balance: what is left of every grant that has not run out. */
export function creditBalance(grants: readonly GrantLeft[], nowMs: number): number {
  return grants.filter((g) => isLive(g, nowMs) && g.leftCents > 0).reduce((a, g) => a + g.leftCents, 0);
}

/** How much credit pays of a total: all of the balance, never more than the total, never below 0. */
export function creditToApply(balanceCents: number, totalCents: number): number {
  return Math.max(0, Math.min(balanceCents, totalCents));
}

/**
 * Which grants pay `amountCents`: oldest-expiring first (so the least credit runs out unused), ties by id for
 * one answer. Expired and empty grants are skipped. Throws when the live balance is short: the caller asks only
 * for what `creditToApply` allowed under the ledger's lock.
 */
export function drawFromGrants(grants: readonly GrantLeft[], amountCents: number, nowMs: number): Array<{ grantId: string; cents: number }> {
  if (!Number.isInteger(amountCents) || amountCents < 0) throw new RangeError(`Not an amount of cents: ${amountCents}`);
  const live = grants
    .filter((g) => isLive(g, nowMs) && g.leftCents > 0)
    .sort((a, b) => a.expiresAtMs - b.expiresAtMs || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const out: Array<{ grantId: string; cents: number }> = [];
  let due = amountCents;
  for (const g of live) {
    if (due === 0) break;
    const cents = Math.min(g.leftCents, due);
    out.push({ grantId: g.id, cents });
    due -= cents;
  }
  if (due > 0) throw new RangeError(`Store credit short by ${due} cents`);
  return out;
}

/** Grants that ran out at `nowMs` with something left: what an expiry entry records for each. */
export function expiredLeft(grants: readonly GrantLeft[], nowMs: number): Array<{ grantId: string; cents: number }> {
  return grants.filter((g) => !isLive(g, nowMs) && g.leftCents > 0).map((g) => ({ grantId: g.id, cents: g.leftCents }));
}

/**
 * A checkout that credit paid in full has no payment intent (the spec: an intent only when something is left to
 * pay). Its order is keyed by this id instead, which no gateway ever issues and no gateway is asked about.
 */
const CREDIT_ONLY_PREFIX = 'credit_';
export const creditOnlyIntentId = (checkoutId: string): string => `${CREDIT_ONLY_PREFIX}${checkoutId}`;
export const isCreditOnlyIntent = (intentId: string | null | undefined): boolean => !!intentId?.startsWith(CREDIT_ONLY_PREFIX);
