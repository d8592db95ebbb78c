import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import type { AddressSnapshot, OrderAddressBody } from '../../../common/contracts/order-address';
import { orderAddressChanges } from './address-changes.tables';
import { orderItems, orders } from './orders.tables';
import type { OrderRow } from './orders.repository';

/** The address an order ships to, as the history keeps it. */
export const addressOf = (
  row: Pick<
    OrderRow,
    'shippingAddress' | 'shippingCity' | 'shippingState' | 'shippingZip' | 'shippingCountry'
  >,
): AddressSnapshot => ({
  address: row.shippingAddress,
  city: row.shippingCity,
  state: row.shippingState,
  zip: row.shippingZip,
  country: row.shippingCountry,
});

/** One line for the admin's history: "street, city, state zip, country". */
export const addressLine = (a: AddressSnapshot): string => `${a.address}, ${a.city}, ${a.state} ${a.zip}, ${a.country}`;

/**
 * The delivery address of an order after it was placed (docs/product.md "Order page"): the order row locked,
 * its address changed and the change kept, in the caller's transaction (the change-order-address flow's, which
 * checks the per-shopper limits in the same one).
 */
export function createAddressChangeService(deps: { db: Db }) {
  return {
    /** The order locked for a change, with its lines still to ship (product and units); null: no such order. */
    async lock(tx: Tx, ref: { orderId: string } | { orderNumber: string }) {
      const [row] = await tx
        .select()
        .from(orders)
        .where('orderId' in ref ? eq(orders.id, ref.orderId) : eq(orders.orderNumber, ref.orderNumber))
        .for('update');
      if (!row) return null;
      const lines = await tx
        .select({
          productId: orderItems.productId,
          name: orderItems.productName,
          quantity: orderItems.quantity,
        })
        .from(orderItems)
        .where(and(eq(orderItems.orderId, row.id), isNull(orderItems.cancelledAt)));
      return {
        row,
        lines: lines.flatMap((l) =>
          l.productId ? [{ productId: l.productId, name: l.name, quantity: l.quantity }] : [],
        ),
      };
    },

    /** Writes the new address on the order and keeps the change (old, new, who); answers the row as it is now. */
    async change(tx: Tx, row: OrderRow, next: OrderAddressBody, by: 'buyer' | 'owner'): Promise<OrderRow> {
      const [updated] = await tx
        .update(orders)
        .set({
          shippingAddress: next.shippingAddress,
          shippingCity: next.shippingCity,
          shippingState: next.shippingState,
          shippingZip: next.shippingZip,
          shippingCountry: next.shippingCountry,
          updatedAt: sql`now()`,
        })
        .where(eq(orders.id, row.id))
        .returning();
      await tx.insert(orderAddressChanges).values({
        orderId: row.id,
        changedBy: by,
        oldAddress: addressOf(row),
        newAddress: addressOf(updated!),
      });
      return updated!;
    },

    /** How many times `by` changed the order's address (in the transaction that holds its lock). */
    async countChanges(tx: Tx, orderId: string, by: 'buyer' | 'owner'): Promise<number> {
      const [row] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(orderAddressChanges)
        .where(and(eq(orderAddressChanges.orderId, orderId), eq(orderAddressChanges.changedBy, by)));
      return Number(row?.n ?? 0);
    },

    /** The changes of many orders' addresses (the admin's list), oldest first per order. */
    async historyOf(orderIds: readonly string[]): Promise<Map<string, Array<{ changedBy: string; oldAddress: AddressSnapshot; newAddress: AddressSnapshot; createdAt: Date }>>> {
      const byOrder = new Map<string, Array<{ changedBy: string; oldAddress: AddressSnapshot; newAddress: AddressSnapshot; createdAt: Date }>>();
      if (orderIds.length === 0) return byOrder;
      const rows = await deps.db
        .select()
        .from(orderAddressChanges)
        .where(inArray(orderAddressChanges.orderId, [...orderIds]))
        .orderBy(asc(orderAddressChanges.createdAt), asc(orderAddressChanges.id));
      for (const r of rows) byOrder.set(r.orderId, [...(byOrder.get(r.orderId) ?? []), r]);
      return byOrder;
    },

    /** Every change of the order's address, oldest first. */
    history(orderId: string) {
      return deps.db
        .select({
          changedBy: orderAddressChanges.changedBy,
          oldAddress: orderAddressChanges.oldAddress,
          newAddress: orderAddressChanges.newAddress,
          createdAt: orderAddressChanges.createdAt,
        })
        .from(orderAddressChanges)
        .where(eq(orderAddressChanges.orderId, orderId))
        .orderBy(asc(orderAddressChanges.createdAt), asc(orderAddressChanges.id));
    },
  };
}

export type AddressChangeService = ReturnType<typeof createAddressChangeService>;
