import { and, asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { products } from '../catalog/catalog.tables';
import { checkouts, stockHolds } from '../checkout/checkout.tables';
import { cartItems } from './cart.tables';

const lineColumns = {
  id: cartItems.id,
  sessionId: cartItems.sessionId,
  productId: cartItems.productId,
  quantity: cartItems.quantity,
  selectedSize: cartItems.selectedSize,
  selectedColor: cartItems.selectedColor,
  product: {
    id: products.id,
    name: products.name,
    images: products.images,
    price: products.price,
    salePrice: products.salePrice,
    stock: products.stock,
    inStock: products.inStock,
  },
};

export interface CartLineRow {
  id: string;
  sessionId: string;
  productId: string;
  quantity: number;
  selectedSize: string | null;
  selectedColor: string | null;
  product: {
    id: string;
    name: string;
    images: string[];
    price: string;
    salePrice: string | null;
    stock: number;
    inStock: boolean;
  };
}

export function listCartLines(db: DbOrTx, sessionId: string): Promise<CartLineRow[]> {
  return db
    .select(lineColumns)
    .from(cartItems)
    .innerJoin(products, eq(products.id, cartItems.productId))
    .where(eq(cartItems.sessionId, sessionId))
    .orderBy(asc(cartItems.createdAt), asc(cartItems.id));
}

/**
 * The lines with what this session's open checkout already holds of each product: checkout uses it to
 * tell a sold-out cart at once, without a transaction (held units come back when the attempt is replaced).
 */
export function listCartLinesWithOwnHolds(
  db: DbOrTx,
  sessionId: string,
): Promise<Array<CartLineRow & { heldByMe: number }>> {
  return db
    .select({
      ...lineColumns,
      heldByMe: sql<number>`(select coalesce(sum(${stockHolds.quantity}), 0)::int from ${stockHolds}
        join ${checkouts} on ${checkouts.id} = ${stockHolds.checkoutId}
        where ${checkouts.sessionId} = ${sessionId} and ${checkouts.status} = 'open'
          and ${stockHolds.status} = 'held' and ${stockHolds.productId} = ${cartItems.productId})`,
    })
    .from(cartItems)
    .innerJoin(products, eq(products.id, cartItems.productId))
    .where(eq(cartItems.sessionId, sessionId))
    .orderBy(asc(cartItems.createdAt), asc(cartItems.id));
}

/**
 * Adds to the line only if the product is on sale and the session's units of it (all lines) stay within
 * stock: the live row decides, not the snapshot the request was validated with. null when refused.
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
): Promise<{ id: string; quantity: number; stock: number } | null> {
  const result = await db.execute<{ id: string; quantity: number; stock: number }>(sql`
    with p as (select ${products.stock} as stock from ${products} where ${products.id} = ${line.productId} and ${products.inStock}),
         mine as (select coalesce(sum(${cartItems.quantity}), 0)::int as q from ${cartItems}
                  where ${cartItems.sessionId} = ${line.sessionId} and ${cartItems.productId} = ${line.productId})
    insert into ${cartItems} (session_id, product_id, quantity, selected_size, selected_color)
    select ${line.sessionId}, ${line.productId}, ${line.quantity}, ${line.selectedSize}, ${line.selectedColor}
      from p, mine where p.stock >= mine.q + ${line.quantity}
    on conflict on constraint cart_items_line_unique do update set quantity = ${cartItems.quantity} + excluded.quantity
    returning id, quantity, (select stock from p) as stock`);
  return result.rows[0] ?? null;
}

export async function findCartLine(db: DbOrTx, sessionId: string, id: string): Promise<CartLineRow | null> {
  const [row] = await db
    .select(lineColumns)
    .from(cartItems)
    .innerJoin(products, eq(products.id, cartItems.productId))
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
