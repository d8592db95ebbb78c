import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client';
import { ORDER_NOT_FOUND } from '../../common/contracts/orders';
import type { ReturnAction, ReturnRecord, ReturnRequestBody, ReturnsView } from '../../common/contracts/returns';
import { isUuid } from '../../common/domain/ids';
import { notFound } from '../lib/http-error';
import type { OrdersService } from '../modules/orders/orders.service';
import type { StoreCreditService } from '../modules/store-credit/store-credit.service';
import type { RefundOrderFlow } from './refund-order';

/** The return's state each owner action moves it to. */
const TARGET: Record<ReturnAction, 'approved' | 'declined' | 'accepted' | 'rejected'> = {
  approve: 'approved',
  decline: 'declined',
  'receive-accept': 'accepted',
  'receive-reject': 'rejected',
};

/** The store-credit ledger's reference of a return's grant: one return, one grant, however often accepted. */
export const returnCreditRef = (returnId: string) => `return-${returnId}`;

/**
 * Returns by the refund policy (docs/product.md "Returns"), across orders, catalog, store credit and inventory:
 *   request  — the buyer, from the order page's signed link: catalog says which pieces are a final sale; the orders
 *              module checks the 2 days after delivery (the database's clock) and writes the return `requested`
 *   act      — the owner: approve | decline (the buyer mailed either way: the approval with the ship-back date),
 *              then received + accept | reject. Acceptance is ONE transaction: the return `accepted`, the store
 *              credit granted (source 'return', what was paid for those pieces, shipping not) and the pieces back
 *              through inventory's one return step (the refund flow's givePiecesBack: same edition numbers)
 *   sweep    — the job: a reminder a day before the ship-back date, an approved return past it expired
 */
export function createReturnOrderFlow(deps: {
  db: Db;
  orders: OrdersService;
  storeCredit: StoreCreditService;
  refunds: Pick<RefundOrderFlow, 'givePiecesBack'>;
  /** The catalogue's final-sale marks ("non-returnable at listing") of these products. */
  finalSaleOf: (productIds: readonly string[]) => Promise<Set<string>>;
  log: FastifyBaseLogger;
  onStockChanged?: () => void;
}) {
  const { db, orders } = deps;
  const returns = orders.returns;

  async function orderOf(orderNumber: string, key: string | undefined) {
    if (!orders.opens(orderNumber, key)) throw notFound(ORDER_NOT_FOUND);
    const found = await returns.orderIdOf(orderNumber);
    if (!found) throw notFound(ORDER_NOT_FOUND);
    return found;
  }

  return {
    /** The order page's list of returns (only with the order's own key). */
    async listByBuyer(orderNumber: string, key: string | undefined): Promise<ReturnsView> {
      const found = await orderOf(orderNumber, key);
      return returns.view(found.id, await deps.finalSaleOf(found.productIds));
    },

    async requestByBuyer(orderNumber: string, key: string | undefined, body: ReturnRequestBody): Promise<ReturnsView> {
      const found = await orderOf(orderNumber, key);
      const finalSale = await deps.finalSaleOf(found.productIds);
      await returns.request(orderNumber, body, finalSale);
      return returns.view(found.id, finalSale);
    },

    async listByOwner(orderId: string): Promise<ReturnRecord[]> {
      if (!isUuid(orderId)) throw notFound(ORDER_NOT_FOUND);
      return returns.list(orderId);
    },

    /** The owner's action; retried (the return already there) answers the same list with nothing done again. */
    async act(orderId: string, returnId: string, action: ReturnAction, note: string | null = null): Promise<ReturnRecord[]> {
      if (!isUuid(orderId) || !isUuid(returnId)) throw notFound(ORDER_NOT_FOUND);
      const to = TARGET[action];
      const done = await db.transaction(async (tx) => {
        const { inHand, again } = await returns.act(tx, orderId, returnId, to, note);
        if (again || to !== 'accepted') return { inHand, again, back: 0 };
        if (inHand.ret.creditCents > 0)
          await deps.storeCredit.grant(tx, {
            email: inHand.order.customerEmail,
            amountCents: inHand.ret.creditCents,
            source: 'return',
            reason: null,
            orderId,
            sourceRef: returnCreditRef(inHand.ret.id),
          });
        const back = await deps.refunds.givePiecesBack(tx, inHand.pieces, inHand.order.orderNumber);
        return { inHand, again, back };
      });
      if (!done.again) {
        if (done.back > 0) deps.onStockChanged?.();
        await returns.mailAfter(done.inHand);
        // The credit mail with the balance and when it runs out, as every grant has (docs/product.md "Store credit").
        if (to === 'accepted' && done.inHand.ret.creditCents > 0)
          await deps.storeCredit.tellGranted(done.inHand.order.customerEmail, done.inHand.ret.creditCents, done.inHand.order.orderNumber);
      }
      return returns.list(orderId);
    },

    /** The job (server/services.ts): reminders a day before the ship-back date, expiry after it. */
    async sweep(): Promise<{ reminded: number; expired: number }> {
      const done = await returns.sweep();
      if (done.expired > 0) deps.log.info({ expired: done.expired }, 'returns expired unshipped');
      return done;
    },
  };
}

export type ReturnOrderFlow = ReturnType<typeof createReturnOrderFlow>;
