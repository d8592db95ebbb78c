import type { Db } from '../db/client';
import type { CartService } from '../modules/cart/cart.service';
import type { CheckoutService } from '../modules/checkout/checkout.service';

/**
 * An admin login gives the browser a new session id (no session fixation); the shopper's cart and saved
 * details follow it, together (docs/architecture.md, Flows). One transaction:
 *   1. moveCart          — the cart lines to the new session
 *   2. moveCustomerInfo  — the saved address and e-mail to the new session
 */
export function createMoveShopperDataFlow(deps: { db: Db; cart: Pick<CartService, 'moveToSession'>; checkout: Pick<CheckoutService, 'moveCustomerInfo'> }) {
  return async function moveShopperData(fromSid: string, toSid: string): Promise<void> {
    await deps.db.transaction(async (tx) => {
      await deps.cart.moveToSession(tx, fromSid, toSid);
      await deps.checkout.moveCustomerInfo(tx, fromSid, toSid);
    });
  };
}
