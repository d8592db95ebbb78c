import type { CreatePaymentIntentResult } from '../../common/contracts/checkout';
import { quantitiesByProduct } from '../../common/domain/stock';
import type { CartService } from '../modules/cart/cart.service';
import type { CheckoutService, PaymentIntentBody } from '../modules/checkout/checkout.service';
import { badRequest } from '../lib/http-error';
import { CHECKOUT_MESSAGES } from '../modules/checkout/totals.service';
import type { Shopper } from '../plugins/shopper';
import { assertMayBuy, buyingShopper, tellInCheckouts, type MayBuyDeps, type WantedPiece } from './assert-may-buy';
import { assertShipsTo } from './ship-to-address';

/**
 * POST /api/create-payment-intent (docs/architecture.md, Flows):
 *   1. readCart      — the session's lines at today's prices (400 when empty)
 *   2. assertMayBuy  — admission pass, release, reservation, per-shopper limit, for every product held
 *      assertShipsTo — a limited edition never ships to the saved P.O. box (409)
 *   3. holdAndOpen   — checkout: one transaction holds the stock, the code and the limit claims, then
 *                      the gateway intent for exactly that amount (checkout.createPaymentIntent); a live
 *                      drop's pieces all in checkouts: "stay", never "sold out"
 */
export function createStartPaymentFlow(deps: {
  cart: CartService;
  checkout: CheckoutService;
  mayBuy: MayBuyDeps;
  /** Credit paid all of it (amount 0, no intent): the order is placed at once (complete-purchase; docs/product.md §2.15). */
  placePaidByCredit?: (sessionId: string, intentId: string) => Promise<{ orderNumber: string }>;
}) {
  const { cart, checkout } = deps;
  return async function startPayment(shopper: Shopper, body: PaymentIntentBody): Promise<CreatePaymentIntentResult> {
    const who = await buyingShopper(shopper);
    if (!who.sessionId) throw badRequest(CHECKOUT_MESSAGES.emptyCart);
    const lines = await cart.pricedLines(who.sessionId);
    if (lines.length === 0) throw badRequest(CHECKOUT_MESSAGES.emptyCart);
    // One piece per line (a reservation may be of one size); the limit counts the product's lines together.
    const inCart = new Map(quantitiesByProduct(lines));
    const pieces: WantedPiece[] = lines.map((l) => ({
      product: { id: l.productId, name: l.name, releaseAt: l.releaseAt, maxPerShopper: l.maxPerShopper },
      size: l.selectedSize,
      adding: 0,
      inCart: inCart.get(l.productId)!,
    }));
    await assertMayBuy(deps.mayBuy, who, pieces);
    // The address was saved before a limited edition came into the cart: no P.O. box for it (409).
    const info = await checkout.getCustomerInfo(who.sessionId);
    if (info) await assertShipsTo(deps.mayBuy, info.shippingAddress, lines, 409);
    const products = lines.map((l) => ({ id: l.productId, name: l.name }));
    const started = await tellInCheckouts(deps.mayBuy, products, () => checkout.createPaymentIntent(who.sessionId!, body, lines));
    if (started.amount > 0 || !deps.placePaidByCredit) return started;
    return { ...started, orderNumber: (await deps.placePaidByCredit(who.sessionId, started.paymentIntentId)).orderNumber };
  };
}
