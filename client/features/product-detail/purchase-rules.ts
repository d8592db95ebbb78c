import { formatUsd, parseMoney, type Cents } from '../../../common/domain/money';
import { unitPriceCents } from '../../../common/domain/pricing';
import { isAvailable } from '../../../common/domain/stock';
import { resolveVariant, type VariantChoice, type VariantProduct } from '../../../common/domain/variant';

export interface PurchasableProduct extends VariantProduct {
  price: string;
  salePrice: string | null;
  inStock: boolean;
  stock: number;
}

/**
 * docs/product.md §4: enabled only if in stock and the line says what to make (a size chosen when sizes
 * exist): the server cart's own rule, resolveVariant in common/domain/variant.ts.
 */
export function canAddToCart(p: PurchasableProduct, choice: VariantChoice): boolean {
  return isAvailable(p) && resolveVariant(p, choice).ok;
}

/** docs/product.md §4: 'Out of Stock', else 'Add to Cart - $' + unit price × quantity with 2 decimals. */
export function addToCartLabel(p: PurchasableProduct, quantity: number): string {
  if (!isAvailable(p)) return 'Out of Stock';
  return `Add to Cart - ${formatUsd(unitPriceCents(p) * Math.max(1, quantity))}`;
}

/** 'Save $X' amount when a sale price is set below the price, else null. */
export function savingsCents(p: Pick<PurchasableProduct, 'price' | 'salePrice'>): Cents | null {
  if (p.salePrice === null) return null;
  const diff = parseMoney(p.price) - parseMoney(p.salePrice);
  return diff > 0 ? diff : null;
}

/** The stepper never goes below 1 (docs/product.md §4). */
export function clampQuantity(n: number): number {
  return Number.isFinite(n) ? Math.max(1, Math.floor(n)) : 1;
}

/** The stepper's top: what is left, and never more than one shopper may buy (docs/product.md §9). */
export function quantityMax(p: { stock: number; maxPerShopper: number }): number {
  return Math.max(1, Math.min(p.stock, p.maxPerShopper));
}

/** Show scarcity only when it is real: a handful of pieces left. */
export const LOW_STOCK_AT = 10;
