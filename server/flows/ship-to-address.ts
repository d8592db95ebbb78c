import type { CustomerInfo, CustomerInfoBody } from '../../common/contracts/checkout';
import { isPoBoxAddress, poBoxRefusal } from '../../common/domain/po-box';
import type { CartService } from '../modules/cart/cart.service';
import type { CheckoutService } from '../modules/checkout/checkout.service';
import { HttpError } from '../lib/http-error';
import type { MayBuyDeps } from './assert-may-buy';

/** What the address check reads: which of the pieces a draw sells (the release time comes with each piece). */
export interface ShipToDeps {
  draws: Pick<MayBuyDeps['draws'], 'productsSoldByDraw'>;
}

/**
 * No P.O. Box for limited editions (docs/product.md, "Fulfilment promises"): a piece released on a schedule
 * or sold by a draw ships only to a street address. `status`: 400 where the address is sent, 409 where a
 * saved address meets the cart.
 */
export async function assertShipsTo(
  deps: ShipToDeps,
  address: string,
  pieces: ReadonlyArray<{ productId: string; releaseAt: string | null }>,
  status: 400 | 409,
): Promise<void> {
  // The pattern first: a street address (nearly every one) costs no query on drop day.
  if (pieces.length === 0 || !isPoBoxAddress(address)) return;
  const byDraw = await deps.draws.productsSoldByDraw([...new Set(pieces.map((p) => p.productId))]);
  const refusal = poBoxRefusal(
    address,
    pieces.map((p) => ({ releaseAt: p.releaseAt, soldByDraw: byDraw.has(p.productId) })),
  );
  if (refusal) throw new HttpError(status, refusal);
}

/**
 * POST /api/customer-info (docs/architecture.md, Flows):
 *   1. readCart    — the session's lines (none yet: any address is kept)
 *   2. assertShipsTo — a limited edition in the cart and a P.O. box address: 400, nothing saved
 *   3. save        — checkout: the session's shipping details
 */
export function createSaveCustomerInfoFlow(deps: ShipToDeps & { cart: Pick<CartService, 'pricedLines'>; checkout: Pick<CheckoutService, 'saveCustomerInfo'> }) {
  return async function saveCustomerInfo(sessionId: string, body: CustomerInfoBody): Promise<CustomerInfo> {
    await assertShipsTo(deps, body.shippingAddress, await deps.cart.pricedLines(sessionId), 400);
    return deps.checkout.saveCustomerInfo(sessionId, body);
  };
}
