import { formatUsd, parseMoney, type Cents } from '../../../common/domain/money';
import { unitPriceCents } from '../../../common/domain/pricing';
import { isAvailable } from '../../../common/domain/stock';

export interface PurchasableProduct {
  price: string;
  salePrice: string | null;
  inStock: boolean;
  stock: number;
  sizes: readonly string[];
}

/** docs/product.md §4: enabled only if in stock and (no sizes exist or a size is chosen). */
export function canAddToCart(p: PurchasableProduct, selectedSize: string | null): boolean {
  return (
    isAvailable(p) && (p.sizes.length === 0 || (selectedSize !== null && p.sizes.includes(selectedSize)))
  );
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
