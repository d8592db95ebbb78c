import type { ShippingMethod } from '../contracts/settings';
import type { Totals } from '../contracts/checkout';
import { formatMoney, parseMoney, type Cents } from './money';
import { discountAmountCents } from './discount';
import { amountToFreeShipping, isFreeShippingEligible, shippingCostCents } from './shipping';

/** docs/product.md §5/§9: the sale price when there is one, else the price. */
export function unitPriceCents(product: { price: string; salePrice: string | null }): Cents {
  return parseMoney(product.salePrice ?? product.price);
}

export interface PricedLine {
  unitPriceCents: Cents;
  quantity: number;
}

/** A cart line as the API sends it ({ quantity, product }) → its priced line. */
export function pricedLine(line: {
  quantity: number;
  product: { price: string; salePrice: string | null };
}): PricedLine {
  return { unitPriceCents: unitPriceCents(line.product), quantity: line.quantity };
}

export function lineTotalCents(line: PricedLine): Cents {
  return line.unitPriceCents * line.quantity;
}

export function subtotalCents(lines: readonly PricedLine[]): Cents {
  return lines.reduce((sum, line) => sum + lineTotalCents(line), 0);
}

export function itemCount(lines: readonly { quantity: number }[]): number {
  return lines.reduce((n, line) => n + line.quantity, 0);
}

export interface TotalsInput {
  lines: readonly PricedLine[];
  discount: { code: string; percent: number } | null;
  shippingMethod: ShippingMethod;
  shippingRateCents: Cents;
  freeShippingThresholdCents: Cents;
  /** 0..1, applied to the goods after the discount. */
  taxRate: number;
}

export interface TotalsCents {
  subtotal: Cents;
  discountCode: string | null;
  discountPercent: number;
  discountAmount: Cents;
  shipping: Cents;
  shippingMethod: ShippingMethod;
  tax: Cents;
  total: Cents;
  freeShippingEligible: boolean;
  freeShippingThreshold: Cents;
  amountToFreeShipping: Cents;
  itemCount: number;
}

/**
 * The one calculation behind the summary, the payment amount and the order:
 * total = subtotal − discount + shipping + tax, tax = rate × (subtotal − discount).
 */
export function computeTotals(input: TotalsInput): TotalsCents {
  const subtotal = subtotalCents(input.lines);
  const percent = input.discount?.percent ?? 0;
  const discountAmount = discountAmountCents(subtotal, percent);
  const merchandise = subtotal - discountAmount;
  // An empty cart ships nothing.
  const shipping =
    subtotal === 0
      ? 0
      : shippingCostCents({
          method: input.shippingMethod,
          rateCents: input.shippingRateCents,
          merchandiseCents: merchandise,
          thresholdCents: input.freeShippingThresholdCents,
        });
  const tax = Math.round(merchandise * input.taxRate);
  const abroad = input.shippingMethod === 'international';
  return {
    subtotal,
    discountCode: input.discount?.code ?? null,
    discountPercent: percent,
    discountAmount,
    shipping,
    shippingMethod: input.shippingMethod,
    tax,
    total: merchandise + shipping + tax,
    // Abroad the threshold waives nothing (ADR 023): neither "eligible" nor "add $X more" is offered.
    freeShippingEligible: !abroad && isFreeShippingEligible(merchandise, input.freeShippingThresholdCents),
    freeShippingThreshold: input.freeShippingThresholdCents,
    amountToFreeShipping: abroad ? 0 : amountToFreeShipping(merchandise, input.freeShippingThresholdCents),
    itemCount: itemCount(input.lines),
  };
}

/** Cents → the "12.34" strings of the totals contract. */
export function totalsToWire(t: TotalsCents): Totals {
  return {
    subtotal: formatMoney(t.subtotal),
    discountCode: t.discountCode,
    discountPercent: t.discountPercent,
    discountAmount: formatMoney(t.discountAmount),
    shipping: formatMoney(t.shipping),
    shippingMethod: t.shippingMethod,
    tax: formatMoney(t.tax),
    total: formatMoney(t.total),
    freeShippingEligible: t.freeShippingEligible,
    freeShippingThreshold: formatMoney(t.freeShippingThreshold),
    amountToFreeShipping: formatMoney(t.amountToFreeShipping),
    itemCount: t.itemCount,
  };
}

/** A client-sent amount (dollars, as the spec's client sends its total) matches when within a cent. */
export function amountMatches(clientDollars: number, serverCents: Cents): boolean {
  return Math.abs(Math.round(clientDollars * 100) - serverCents) <= 1;
}
