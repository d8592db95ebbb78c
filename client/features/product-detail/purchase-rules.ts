import { formatUsd, parseMoney, type Cents } from '../../../common/domain/money';

export interface PurchasableProduct {
  price: string;
  salePrice: string | null;
  inStock: boolean;
  stock: number;
  sizes: readonly string[];
}

/** SPEC §5: the displayed (and charged) unit price is the sale price when present. */
export function unitPriceCents(p: Pick<PurchasableProduct, 'price' | 'salePrice'>): Cents {
  return parseMoney(p.salePrice ?? p.price);
}

/** DESIGN: `inStock` false or stock 0 both mean the product cannot be bought. */
export function isPurchasable(p: Pick<PurchasableProduct, 'inStock' | 'stock'>): boolean {
  return p.inStock && p.stock > 0;
}

/** SPEC §4: enabled only if in stock and (no sizes exist or a size is chosen). */
export function canAddToCart(p: PurchasableProduct, selectedSize: string | null): boolean {
  return (
    isPurchasable(p) && (p.sizes.length === 0 || (selectedSize !== null && p.sizes.includes(selectedSize)))
  );
}

/** SPEC §4: 'Out of Stock', else 'Add to Cart - $' + unit price × quantity with 2 decimals. */
export function addToCartLabel(p: PurchasableProduct, quantity: number): string {
  if (!isPurchasable(p)) return 'Out of Stock';
  return `Add to Cart - ${formatUsd(unitPriceCents(p) * Math.max(1, quantity))}`;
}

/** 'Save $X' amount when a sale price is set below the price, else null. */
export function savingsCents(p: Pick<PurchasableProduct, 'price' | 'salePrice'>): Cents | null {
  if (p.salePrice === null) return null;
  const diff = parseMoney(p.price) - parseMoney(p.salePrice);
  return diff > 0 ? diff : null;
}

/** The stepper never goes below 1 (SPEC §4). */
export function clampQuantity(n: number): number {
  return Number.isFinite(n) ? Math.max(1, Math.floor(n)) : 1;
}

/** "$60.00" → "$60", "$62.50" stays: whole-dollar thresholds read better in copy. */
export function formatThreshold(value: string): string {
  const cents = parseMoney(value);
  return cents % 100 === 0 ? `$${cents / 100}` : formatUsd(cents);
}

/** Show scarcity only when it is real: a handful of pieces left. */
export const LOW_STOCK_AT = 10;
