import { z } from 'zod';
import { safeString } from './safe-string';
import { moneyString } from './catalog';

const MAX_QUANTITY = 1000;

/** Quantities are whole numbers; 1.5, "abc", -1 and 1e12 are refused with a message. */
export const quantitySchema = z
  .number({ message: 'Quantity must be a whole number' })
  .int({ message: 'Quantity must be a whole number' })
  .max(MAX_QUANTITY, { message: `Quantity cannot be more than ${MAX_QUANTITY}` });

export const addToCartBody = z.object({
  productId: safeString().uuid({ message: 'Invalid product id' }),
  quantity: quantitySchema.min(1, { message: 'Quantity must be at least 1' }).default(1),
  selectedSize: safeString().max(50).nullish(),
  selectedColor: safeString().max(50).nullish(),
});
export type AddToCartBody = z.infer<typeof addToCartBody>;

/** PUT to 0 or less removes the line (docs/product.md §4). */
export const updateCartBody = z.object({ quantity: quantitySchema.min(-MAX_QUANTITY) });
export const cartItemParams = z.object({ id: safeString().uuid({ message: 'Cart item not found' }) });

/**
 * A cart line as every cart route answers it (the routes' response schema: fields not listed here are never
 * sent). `sessionId` is the public digest of the session (publicSessionRef), never the raw session id.
 */
export const cartItemSchema = z.object({
  id: safeString().uuid(),
  sessionId: safeString().regex(/^[A-Za-z0-9_-]{32}$/),
  productId: safeString().uuid(),
  quantity: z.number().int(),
  selectedSize: safeString().nullable(),
  selectedColor: safeString().nullable(),
  product: z.object({
    id: safeString().uuid(),
    name: safeString(),
    images: z.array(safeString()),
    price: moneyString,
    salePrice: moneyString.nullable(),
    stock: z.number().int(),
    inStock: z.boolean(),
  }),
});
export type CartItem = z.infer<typeof cartItemSchema>;
export const cartSchema = z.array(cartItemSchema);

// Answers of the cart routes (GET/POST /api/cart: cartSchema / cartItemSchema).
/** PUT /api/cart/:id to 0 or less: the line is gone. */
export const cartLineRemoved = z.object({ success: z.literal(true), removed: z.literal(true) });
/** PUT /api/cart/:id: the changed line, or removed. */
export const updateCartResponse = z.union([cartItemSchema, cartLineRemoved]);
/** DELETE /api/cart/:id and DELETE /api/cart. */
export const cartDone = z.object({ success: z.literal(true) });
