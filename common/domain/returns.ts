// Returns by the refund policy (docs/product.md "Returns"): a return is a record of its own beside the
// order's six statuses, moved along its own table on the shared lifecycle machine (lifecycle.ts).
import { lifecycleRules, type Lifecycle } from './lifecycle';
import { RETURN_POLICY } from './return-policy';

export const RETURN_STATUSES = ['requested', 'approved', 'declined', 'received', 'expired', 'accepted', 'rejected'] as const;
export type ReturnStatus = (typeof RETURN_STATUSES)[number];

/** A return still in the owner's or the buyer's hands (its lines may not be asked for again). */
export const OPEN_RETURN_STATUSES = ['requested', 'approved', 'received'] as const satisfies readonly ReturnStatus[];

export const RETURN_LIFECYCLES = {
  return: {
    requested: ['approved', 'declined'],
    approved: ['received', 'expired'],
    received: ['accepted', 'rejected'],
    declined: [],
    expired: [],
    accepted: [],
    rejected: [],
  } satisfies Lifecycle<ReturnStatus>,
} as const;

const rules = lifecycleRules(RETURN_LIFECYCLES);
export const canReturn = (from: string, to: ReturnStatus) => rules.can('return', from, to);
export const assertReturn = (from: string, to: ReturnStatus) => rules.assert('return', from, to);
export const returnSourcesOf = (to: ReturnStatus) => rules.sourcesOf('return', to);

const DAY_MS = 24 * 60 * 60 * 1000;

/** The end of the buyer's window to ask: `requestDays` after the order was marked delivered. */
export const returnRequestEnds = (deliveredAt: Date): Date => new Date(deliveredAt.getTime() + RETURN_POLICY.requestDays * DAY_MS);

/** Whether a return may be asked for now (delivered, and within the window; the database's clock). */
export function mayRequestReturn(order: { status: string; deliveredAt: Date | null }, nowMs: number): boolean {
  return order.status === 'delivered' && !!order.deliveredAt && nowMs <= returnRequestEnds(order.deliveredAt).getTime();
}

/** The date an approved return must be shipped back by: `shipBackDays` after approval. */
export const shipBackBy = (approvedAt: Date): Date => new Date(approvedAt.getTime() + RETURN_POLICY.shipBackDays * DAY_MS);

/** When the reminder goes: a day before the ship-back deadline. */
export const reminderAt = (approvedAt: Date): Date => new Date(shipBackBy(approvedAt).getTime() - DAY_MS);
