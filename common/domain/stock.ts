// Stock rules of a limited drop: the cart never promises more than is left, a hold is all-or-nothing,
// and every unit sold gets the next edition number of its design.

export const EDITION_SIZE = 50;

export const stockMessages = {
  soldOut: (name: string) => `Sorry, ${name} is sold out`,
  onlyLeft: (left: number) => `Only ${left} left`,
  justSoldOut: (name: string) => `Sorry, ${name} just sold out`,
  /** A size of a product split into sizes (ADR 015) went while the shopper paid: 'Sorry, Tee in M just sold out'. */
  sizeJustSoldOut: (name: string, size: string) => `Sorry, ${name} in ${size} just sold out`,
  /** The cart refuses a size with nothing left: 'Sorry, M is sold out'. */
  sizeSoldOut: (size: string) => `Sorry, ${size} is sold out`,
  /** The cart line asks for more of a size than is left. */
  sizeOnlyLeft: (size: string, left: number) => `Only ${left} left in ${size}`,
} as const;

/** 'Sorry, Tee in M just sold out', or without a size (one run) 'Sorry, Tee just sold out'. */
export function justSoldOutMessage(name: string, size: string | null | undefined): string {
  return size ? stockMessages.sizeJustSoldOut(name, size) : stockMessages.justSoldOut(name);
}

export interface StockState {
  name: string;
  stock: number;
  inStock: boolean;
}

/**
 * Can this product be bought? The one availability rule of storefront, cart and checkout: sold out
 * (stock 0) is never "in stock", whatever the owner's flag says, and the flag alone pauses a product.
 */
export function isAvailable(p: Pick<StockState, 'inStock' | 'stock'>): boolean {
  return p.inStock && p.stock > 0;
}

export type QuantityCheck = { ok: true } | { ok: false; message: string };

/**
 * May the shopper's cart hold `wanted` units of this product in total (all sizes and colours)?
 * Lowering a quantity is always allowed, even when stock has since dropped below it.
 */
export function checkCartQuantity(p: StockState, wanted: number, current = 0): QuantityCheck {
  if (wanted <= current) return { ok: true };
  if (!isAvailable(p)) return { ok: false, message: stockMessages.soldOut(p.name) };
  if (wanted > p.stock) return { ok: false, message: stockMessages.onlyLeft(p.stock) };
  return { ok: true };
}

/** Units per product, in product-id order: rows are always locked in this order, so holds never deadlock. */
export function quantitiesByProduct(
  lines: readonly { productId: string; quantity: number }[],
): Array<[string, number]> {
  const totals = new Map<string, number>();
  for (const line of lines) totals.set(line.productId, (totals.get(line.productId) ?? 0) + line.quantity);
  return [...totals].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * The edition numbers `quantity` units sold of one design carry. A returned piece keeps its number and is
 * the next one sold (`reused`: the returned numbers this sale took, lowest first, at most `quantity`);
 * the rest get new numbers after the highest given so far. New numbers are needed only once no returned
 * number is left, and then the highest number given is the sold count itself, so they end at
 * `soldCountAfter` (the design's sold count after this sale). Every number given is unique and within
 * the edition (docs/product.md, "Edition numbers").
 */
export function editionNumbersFor(soldCountAfter: number, quantity: number, reused: readonly number[] = []): number[] {
  const fresh = quantity - reused.length;
  return [...reused, ...Array.from({ length: fresh }, (_, i) => soldCountAfter - fresh + 1 + i)];
}

/** [17] → "No. 17 of 50"; [17, 18] → "Nos. 17, 18 of 50". */
export function formatEditionNumbers(numbers: readonly number[], editionSize = EDITION_SIZE): string {
  if (numbers.length === 0) return '';
  if (numbers.length === 1) return `No. ${numbers[0]} of ${editionSize}`;
  return `Nos. ${numbers.join(', ')} of ${editionSize}`;
}
