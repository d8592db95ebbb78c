import type { AddToCartBody, CartItem } from '../../common/contracts/cart';
import type { CartService } from '../modules/cart/cart.service';
import type { Shopper } from '../plugins/shopper';
import { assertMayBuy, buyingShopper, tellInCheckouts, type MayBuyDeps } from './assert-may-buy';

/**
 * POST /api/cart (docs/architecture.md, Flows):
 *   1. readProduct   — the product the add is about (404)
 *   2. assertMayBuy  — admission pass, release, reservation, per-shopper limit
 *   3. addLine       — size and colour, stock and the limit again under the session's lock (a live drop's
 *                      pieces all in checkouts: "stay", never "sold out")
 */
export function createAddToCartFlow(deps: { cart: CartService; mayBuy: MayBuyDeps }) {
  const { cart } = deps;
  return async function addToCart(shopper: Shopper, body: AddToCartBody): Promise<CartItem> {
    const product = await cart.productToAdd(body.productId);
    const who = await buyingShopper(shopper);
    await assertMayBuy(deps.mayBuy, who, [
      { product, size: body.selectedSize?.trim() || null, adding: body.quantity, inCart: await cart.quantityInCart(who.sessionId, product.id) },
    ]);
    return tellInCheckouts(deps.mayBuy, [product], () => cart.add(who.sessionId, body, shopper.ensureSessionId, product));
  };
}
