import type { CartItem } from '../../common/contracts/cart';
import type { CartService } from '../modules/cart/cart.service';
import type { Shopper } from '../plugins/shopper';
import { assertMayBuy, buyingShopper, type MayBuyDeps } from './assert-may-buy';

/**
 * PUT /api/cart/:id (docs/architecture.md, Flows): raising a line is adding, so it passes the same check.
 *   1. readLine      — the session's line (404 for another session's)
 *   2. assertMayBuy  — only when raising: admission pass, release, reservation, per-shopper limit
 *   3. setQuantity   — 0 or less removes the line; a raise is checked again under the session's lock
 * null: the line was removed.
 */
export function createChangeCartLineFlow(deps: { cart: CartService; mayBuy: MayBuyDeps }) {
  const { cart } = deps;
  return async function changeCartLine(shopper: Shopper, lineId: string, quantity: number): Promise<CartItem | null> {
    const who = await buyingShopper(shopper);
    const line = await cart.lineOf(who.sessionId, lineId);
    if (quantity > line.quantity) {
      const product = await cart.productFresh(line.productId);
      const inCart = await cart.quantityInCart(who.sessionId, line.productId);
      await assertMayBuy(deps.mayBuy, who, [{ product, size: line.selectedSize, adding: quantity - line.quantity, inCart }]);
    }
    return cart.update(who.sessionId, lineId, quantity);
  };
}
