import { and, asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { products } from '../catalog/catalog.tables';
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

/** The same product + size + colour is one line: adding again adds to its quantity. */
export async function upsertCartLine(
  db: DbOrTx,
  line: {
    sessionId: string;
    productId: string;
    quantity: number;
    selectedSize: string | null;
    selectedColor: string | null;
  },
): Promise<{ id: string; quantity: number }> {
  const [row] = await db
    .insert(cartItems)
    .values(line)
    .onConflictDoUpdate({
      target: [cartItems.sessionId, cartItems.productId, cartItems.selectedSize, cartItems.selectedColor],
      set: { quantity: sql`${cartItems.quantity} + excluded.quantity` },
    })
    .returning({ id: cartItems.id, quantity: cartItems.quantity });
  return row!;
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
