import type { CheckoutCreditBalance } from '../../common/contracts/store-credit';
import { formatMoney } from '../../common/domain/money';
import type { CheckoutService } from '../modules/checkout/checkout.service';
import type { StoreCreditService } from '../modules/store-credit/store-credit.service';

/**
 * GET /api/checkout/store-credit (docs/product.md §2.15):
 *   1. readEmail  — checkout: the session's saved details (none yet: no balance to offer)
 *   2. balanceOf  — store-credit: that mailbox's balance (any spelling) and its soonest expiry
 * Only the session's own saved address is asked about: nobody learns another mailbox's balance by typing it.
 */
export function createCheckoutCreditFlow(deps: { checkout: Pick<CheckoutService, 'getCustomerInfo'>; storeCredit: Pick<StoreCreditService, 'balanceOf'> }) {
  return async function checkoutCredit(sessionId: string | null): Promise<CheckoutCreditBalance> {
    const info = await deps.checkout.getCustomerInfo(sessionId);
    if (!info) return { balance: '0.00', nextExpiry: null };
    const s = await deps.storeCredit.balanceOf(info.email);
    return {
      balance: formatMoney(s.balanceCents),
      nextExpiry: s.nextExpiry ? { amount: formatMoney(s.nextExpiry.amountCents), expiresAt: s.nextExpiry.expiresAt.toISOString() } : null,
    };
  };
}
