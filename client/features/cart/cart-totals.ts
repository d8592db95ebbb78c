import { parseMoney, type Cents } from '../../../common/domain/money';

interface PricedLine {
  quantity: number;
  product: { price: string; salePrice: string | null };
}

/** SPEC §5/§9: a line costs salePrice when present, else price, times quantity. */
export function lineTotalCents(line: PricedLine): Cents {
  return parseMoney(line.product.salePrice ?? line.product.price) * line.quantity;
}

export function cartTotalCents(lines: readonly PricedLine[]): Cents {
  return lines.reduce((sum, line) => sum + lineTotalCents(line), 0);
}

/** Item count = sum of quantities. */
export function cartItemCount(lines: readonly { quantity: number }[]): number {
  return lines.reduce((n, line) => n + line.quantity, 0);
}

/** '1 item' / 'N items'. */
export function itemCountLabel(count: number): string {
  return count === 1 ? '1 item' : `${count} items`;
}

/** "60.00" → "$60", "59.50" → "$59.50": the free-shipping note reads naturally for whole amounts. */
export function formatThresholdUsd(value: string): string {
  const cents = parseMoney(value);
  return cents % 100 === 0
    ? `$${cents / 100}`
    : `$${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}
