import { and, asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { lockSeed } from '../../lib/advisory-locks';
import { cartItems } from './cart.tables';

export type CartLineRow = typeof cartItems.$inferSelect;

export function listCartLines(db: DbOrTx, sessionId: string): Promise<CartLineRow[]> {
  return db
    .select()
    .from(cartItems)
    .where(eq(cartItems.sessionId, sessionId))
    .orderBy(asc(cartItems.createdAt), asc(cartItems.id));
}

/**
 * Adds to the line only if the session's units of the product (all lines) stay within `stock`, the
 * live stock inventory just read (not the snapshot the request was validated with). null when refused.
 */
export async function addCartLineIfAvailable(
  db: DbOrTx,
  line: {
    sessionId: string;
    productId: string;
    quantity: number;
    selectedSize: string | null;
    selectedColor: string | null;
  },
  stock: number,
): Promise<{ id: string; quantity: number } | null> {
  const result = await db.execute<{ id: string; quantity: number }>(sql`
    with mine as (select coalesce(sum(${cartItems.quantity}), 0)::int as q from ${cartItems}
                  where ${cartItems.sessionId} = ${line.sessionId} and ${cartItems.productId} = ${line.productId})
    insert into ${cartItems} (session_id, product_id, quantity, selected_size, selected_color)
    select ${line.sessionId}, ${line.productId}, ${line.quantity}, ${line.selectedSize}, ${line.selectedColor}
      from mine where ${stock}::int >= mine.q + ${line.quantity}
    on conflict on constraint cart_items_line_unique do update set quantity = ${cartItems.quantity} + excluded.quantity
    returning id, quantity`);
  return result.rows[0] ?? null;
}

export async function findCartLine(db: DbOrTx, sessionId: string, id: string): Promise<CartLineRow | null> {
  const [row] = await db
    .select()
    .from(cartItems)
    .where(and(eq(cartItems.sessionId, sessionId), eq(cartItems.id, id)))
    .limit(1);
  return row ?? null;
}

/** Units of a product across all of the session's lines (sizes and colours share one stock). */
export async function productQuantityInCart(
  db: DbOrTx,
  sessionId: string,
  productId: string,
): Promise<number> {
  const [row] = await db
    .select({ total: sql<number>`coalesce(sum(${cartItems.quantity}), 0)::int` })
    .from(cartItems)
    .where(and(eq(cartItems.sessionId, sessionId), eq(cartItems.productId, productId)));
  return row?.total ?? 0;
}

export async function updateCartLineQuantity(
  db: DbOrTx,
  sessionId: string,
  id: string,
  quantity: number,
): Promise<boolean> {
  const rows = await db
    .update(cartItems)
    .set({ quantity })
    .where(and(eq(cartItems.sessionId, sessionId), eq(cartItems.id, id)))
    .returning({ id: cartItems.id });
  return rows.length > 0;
}

export async function deleteCartLine(db: DbOrTx, sessionId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(cartItems)
    .where(and(eq(cartItems.sessionId, sessionId), eq(cartItems.id, id)))
    .returning({ id: cartItems.id });
  return rows.length > 0;
}

export async function clearCart(db: DbOrTx, sessionId: string): Promise<void> {
  await db.delete(cartItems).where(eq(cartItems.sessionId, sessionId));
}

/** The session id changed (admin login): the lines follow it. */
export async function moveCartLines(db: DbOrTx, fromSid: string, toSid: string): Promise<void> {
  await db.update(cartItems).set({ sessionId: toSid }).where(eq(cartItems.sessionId, fromSid));
}

/**
 * Waits for the session's lock of a product until the caller's transaction ends: adds and raises of one
 * session's line of one product go one at a time, so each sees what the one before it put in the cart.
 */
export async function lockSessionProduct(tx: DbOrTx, sessionId: string, productId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`cart:${sessionId}:${productId}`}, ${lockSeed('cartLine')}))`);
}
