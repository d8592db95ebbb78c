import type { Db, DbOrTx } from '../../db/client';
import type { AddToCartBody, CartItem } from '../../../common/contracts/cart';
import type { Product } from '../../../common/contracts/catalog';
import { unitPriceCents } from '../../../common/domain/pricing';
import { imageForColor } from '../../../common/domain/color-image';
import { checkCartQuantity, isAvailable, stockMessages } from '../../../common/domain/stock';
import { resolveVariant } from '../../../common/domain/variant';
import { badRequest, conflict, notFound } from '../../lib/http-error';
import { publicSessionRef } from '../../lib/session-ref';
import {
  addCartLineIfAvailable,
  clearCart,
  deleteCartLine,
  findCartLine,
  listCartLines,
  lockSessionProduct,
  moveCartLines,
  productQuantityInCart,
  updateCartLineQuantity,
  type CartLineRow,
} from './cart.repository';
import type { PricedCartLine } from '../../lib/priced-cart-line';

/**
 * The one cart-line mapping: every cart answer (GET, POST, PUT) is built here and serialized through the
 * route's response schema (common/contracts/cart.ts). The session appears only as its public digest: the
 * raw id is the bearer credential of the session cookie.
 */
export function toCartItem(
  row: Pick<CartLineRow, 'id' | 'sessionId' | 'productId' | 'quantity' | 'selectedSize' | 'selectedColor'>,
  product: Product,
): CartItem {
  return {
    id: row.id,
    sessionId: publicSessionRef(row.sessionId),
    productId: row.productId,
    quantity: row.quantity,
    selectedSize: row.selectedSize,
    selectedColor: row.selectedColor,
    product: {
      id: product.id,
      name: product.name,
      images: product.images,
      price: product.price,
      salePrice: product.salePrice,
      stock: product.stock,
      inStock: isAvailable(product),
    },
  };
}

export type { PricedCartLine };

/** What the cart reads of the catalogue (the catalog module's service; wired in server/services.ts). */
export interface CartCatalog {
  /** From the catalogue snapshot (size and colour rarely change). */
  getProduct(id: string): Promise<Product | null>;
  getProductFresh(id: string): Promise<Product | null>;
  getProductsFresh(ids: readonly string[]): Promise<Map<string, Product>>;
}

/** The live stock row (the inventory module's service). */
export interface CartStock {
  stockOf(productId: string): Promise<{ stock: number; inStock: boolean } | null>;
  /** Pieces left of one size of a product split into sizes (ADR 015); null: one pool, or no such size. */
  sizeLeft(productId: string, size: string | null, colour: string | null): Promise<{ size: string; left: number } | null>;
}

/** The per-shopper limit, checked again under the session's lock (the purchase-limits module's service). */
export interface CartLimits {
  assertCartRoom(
    sessionId: string | null,
    product: { id: string; name: string; maxPerShopper: number },
    adding: number,
    inCart: number,
    tx?: DbOrTx,
  ): Promise<void>;
}

/**
 * The cart's lines. Whether the shopper may take a piece at all (release, admission pass, reservation,
 * limit) is asked before any add or raise by the flows' assertMayBuy (server/flows/assert-may-buy.ts);
 * the cart checks size, colour, stock and the limit again under its lock.
 */
export function createCartService(deps: { db: Db; catalog: CartCatalog; inventory: CartStock; limits: CartLimits }) {
  const { db, catalog, inventory } = deps;

  /**
   * A size of a product split into sizes is sold out on its own: the line may not ask for more of it than
   * is left (409 naming the size: 'Sorry, M is sold out'). Only a hint, as the product's stock: the
   * checkout's hold per size is the guard.
   */
  async function refuseShortSize(productId: string, size: string | null, colour: string | null, wanted: number): Promise<void> {
    const left = await inventory.sizeLeft(productId, size, colour);
    if (!left || wanted <= left.left) return;
    throw conflict(left.left <= 0 ? stockMessages.sizeSoldOut(left.size) : stockMessages.sizeOnlyLeft(left.size, left.left));
  }

  /** The session's lines with their products, fresh from the database (a deleted product's line is gone). */
  async function linesWithProducts(sessionId: string): Promise<Array<{ row: CartLineRow; product: Product }>> {
    const rows = await listCartLines(db, sessionId);
    const products = await catalog.getProductsFresh(rows.map((r) => r.productId));
    return rows.flatMap((row) => {
      const product = products.get(row.productId);
      return product ? [{ row, product }] : [];
    });
  }

  async function productOrThrow(productId: string): Promise<Product> {
    const product = await catalog.getProductFresh(productId);
    if (!product) throw notFound('Product not found');
    return product;
  }

  return {
    async list(sessionId: string | null): Promise<CartItem[]> {
      if (!sessionId) return [];
      return (await linesWithProducts(sessionId)).map(({ row, product }) => toCartItem(row, product));
    },

    /** The product a cart add is about (404 when there is none): the snapshot's, else the live row. */
    async productToAdd(productId: string): Promise<Product> {
      // The catalogue snapshot validates size and colour (they rarely change); the live row decides stock.
      return (await catalog.getProduct(productId)) ?? (await productOrThrow(productId));
    },

    /** The live product row (404 when it is gone). */
    productFresh: productOrThrow,

    /** Units of a product across the session's lines (sizes and colours share one stock). */
    async quantityInCart(sessionId: string | null, productId: string): Promise<number> {
      return sessionId ? productQuantityInCart(db, sessionId, productId) : 0;
    },

    /** The session's line (404 when it is not this session's). */
    async lineOf(sessionId: string | null, id: string): Promise<CartLineRow> {
      const line = sessionId ? await findCartLine(db, sessionId, id) : null;
      if (!line) throw notFound('Cart item not found');
      return line;
    },

    /**
     * Adds `body` for `product` (read by productToAdd; the caller has asked assertMayBuy first). Size and
     * colour are resolved here; the per-shopper limit and the stock are checked again under the lock.
     * Validates everything before the session exists, so a refused add creates nothing: `ensureSession`
     * is called only once the line is known to be good.
     */
    async add(sessionId: string | null, body: AddToCartBody, ensureSession: () => Promise<string>, product: Product): Promise<CartItem> {
      // The one size/colour rule of an order line, shared with the storefront's pickers (common/domain/variant.ts).
      const variant = resolveVariant(product, { size: body.selectedSize, color: body.selectedColor });
      if (!variant.ok) throw badRequest(variant.message);
      const { size: selectedSize, color: selectedColor } = variant;
      await refuseShortSize(product.id, selectedSize, selectedColor, body.quantity);
      // A sold-out answer creates no session; the snapshot may be stale, so refuse only on the live row.
      if (!sessionId && !checkCartQuantity(product, body.quantity).ok) {
        const check = checkCartQuantity(await productOrThrow(product.id), body.quantity);
        if (!check.ok) throw conflict(check.message);
      }
      const sid = sessionId ?? (await ensureSession());
      const live = await inventory.stockOf(product.id);
      // Parallel adds of one session (8 at once) wait for each other on the session's lock of the product,
      // and the limit is checked again against what the cart holds then: the cart never passes it (ADR 013).
      const saved =
        live && live.inStock
          ? await db.transaction(async (tx) => {
              await lockSessionProduct(tx, sid, product.id);
              await deps.limits.assertCartRoom(sid, product, body.quantity, await productQuantityInCart(tx, sid, product.id), tx);
              return addCartLineIfAvailable(
                tx,
                { sessionId: sid, productId: product.id, quantity: body.quantity, selectedSize, selectedColor },
                live.stock,
              );
            })
          : null;
      if (!saved) {
        const fresh = await productOrThrow(product.id);
        const inCart = await productQuantityInCart(db, sid, product.id);
        const check = checkCartQuantity(fresh, inCart + body.quantity, inCart);
        throw conflict(check.ok ? stockMessages.onlyLeft(fresh.stock) : check.message);
      }
      // The live stock, through the one mapping (no second copy of the line's shape).
      return toCartItem(
        { id: saved.id, sessionId: sid, productId: product.id, quantity: saved.quantity, selectedSize, selectedColor },
        { ...product, stock: live!.stock },
      );
    },

    /** Quantity 0 or less removes the line (docs/product.md §4); another session's line is a 404. */
    async update(sessionId: string | null, id: string, quantity: number): Promise<CartItem | null> {
      const line = sessionId ? await findCartLine(db, sessionId, id) : null;
      if (!sessionId || !line) throw notFound('Cart item not found');
      if (quantity <= 0) {
        await deleteCartLine(db, sessionId, id);
        return null;
      }
      const product = await productOrThrow(line.productId);
      if (quantity > line.quantity) await refuseShortSize(line.productId, line.selectedSize, line.selectedColor, quantity);
      // Raising a line is adding: under the session's lock of the product (as an add), read again, so
      // parallel raises and adds cannot pass the per-shopper limit together; lowering always works.
      const current = await db.transaction(async (tx) => {
        if (quantity > line.quantity) await lockSessionProduct(tx, sessionId, line.productId);
        const now = quantity > line.quantity ? await findCartLine(tx, sessionId, id) : line;
        if (!now) throw notFound('Cart item not found');
        const others = (await productQuantityInCart(tx, sessionId, line.productId)) - now.quantity;
        const check = checkCartQuantity(product, others + quantity, others + now.quantity);
        if (!check.ok) throw conflict(check.message);
        if (quantity > now.quantity)
          await deps.limits.assertCartRoom(sessionId, product, quantity - now.quantity, others + now.quantity, tx);
        await updateCartLineQuantity(tx, sessionId, id, quantity);
        return now;
      });
      return toCartItem({ ...current, quantity }, product);
    },

    async remove(sessionId: string | null, id: string): Promise<void> {
      if (!sessionId || !(await deleteCartLine(db, sessionId, id))) throw notFound('Cart item not found');
    },

    async clear(sessionId: string | null): Promise<void> {
      if (sessionId) await clearCart(db, sessionId);
    },

    /** Inside the order's transaction: the paid cart is emptied with it. */
    async clearInTransaction(tx: DbOrTx, sessionId: string): Promise<void> {
      await clearCart(tx, sessionId);
    },

    /** The session id changed (admin login): its lines follow, inside the caller's transaction. */
    async moveToSession(tx: DbOrTx, fromSid: string, toSid: string): Promise<void> {
      await moveCartLines(tx, fromSid, toSid);
    },

    async pricedLines(sessionId: string): Promise<PricedCartLine[]> {
      return (await linesWithProducts(sessionId)).map(({ row, product }) => ({
        productId: row.productId,
        name: product.name,
        unitPriceCents: unitPriceCents(product),
        quantity: row.quantity,
        selectedSize: row.selectedSize,
        selectedColor: row.selectedColor,
        // The chosen colour's image: the order (and its page, success screen and mails) keeps it.
        image: imageForColor(product, row.selectedColor),
        available: isAvailable(product) ? product.stock : 0,
        releaseAt: product.releaseAt,
        maxPerShopper: product.maxPerShopper,
      }));
    },
  };
}

export type CartService = ReturnType<typeof createCartService>;
