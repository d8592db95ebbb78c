import type { Db } from '../../db/client';
import type { DiscountResult, Totals } from '../../../common/contracts/checkout';
import type { ShippingMethod } from '../../../common/contracts/settings';
import { checkDiscountCode, isLimitedCode, normalizeDiscountCode, type DiscountCheck } from '../../../common/domain/discount';
import { computeTotals, totalsToWire, type TotalsCents } from '../../../common/domain/pricing';
import { resolveShippingMethod } from '../../../common/domain/shipping';
import { badRequest, conflict, notFound } from '../../lib/http-error';
import type { CheckoutCart, CheckoutCartLine as PricedCartLine, CheckoutDiscounts, CheckoutSettings } from './checkout.ports';
import { countOwnClaims } from './checkout.repository';
import type { CustomerInfoService } from './customer-info.service';

export const CHECKOUT_MESSAGES = {
  emptyCart: 'Your cart is empty',
  noCustomerInfo: 'Please enter your shipping information first',
  amountChanged: 'Your cart changed; please review the total',
  nothingToPay: 'The total must be above $0.00 to pay by card',
  paymentInitFailed: 'Failed to initialize payment. Please try again.',
} as const;

export const discountError = (check: Extract<DiscountCheck, { ok: false }>) =>
  check.reason === 'used' ? conflict(check.message) : badRequest(check.message);

/** Totals: the cart priced with shipping, tax and a discount code, from the shop's one rates table. */
export function createTotalsService(deps: {
  db: Db;
  cart: CheckoutCart;
  discounts: CheckoutDiscounts;
  settings: CheckoutSettings;
  customerInfo: CustomerInfoService;
}) {
  const { db, cart, discounts, settings, customerInfo } = deps;

  function totalsFor(
    lines: readonly PricedCartLine[],
    method: ShippingMethod,
    discount: { code: string; percent: number } | null,
  ): TotalsCents {
    return computeTotals({
      lines,
      discount,
      shippingMethod: method,
      shippingRateCents: settings.rate(method).cents,
      freeShippingThresholdCents: settings.freeShippingThresholdCents,
      taxRate: settings.taxRate,
    });
  }

  /** Usages of `code` this session already holds through its open checkouts. */
  async function ownClaims(sessionId: string | null, code: string): Promise<number> {
    return sessionId ? countOwnClaims(db, sessionId, code) : 0;
  }

  async function checkCode(sessionId: string | null, raw: string): Promise<DiscountCheck> {
    const code = normalizeDiscountCode(raw);
    const row = await discounts.find(code);
    return checkDiscountCode(
      row,
      new Date(),
      row && isLimitedCode(row) ? await ownClaims(sessionId, code) : 0,
    );
  }

  return {
    totalsFor,

    async validateDiscount(sessionId: string | null, code: string): Promise<DiscountResult> {
      const check = await checkCode(sessionId, code);
      if (!check.ok) throw check.reason === 'invalid' ? notFound(check.message) : badRequest(check.message);
      return { code: check.code, discountPercent: check.discountPercent };
    },

    /**
     * The summary from the session's cart. A code that no longer applies is left out
     * (discountCode null) rather than failing the summary; paying with it is refused.
     */
    async calculateTotals(
      sessionId: string | null,
      body: { discountCode?: string | null; shippingMethod?: ShippingMethod; shippingCountry?: string },
    ): Promise<Totals> {
      const lines = sessionId ? await cart.pricedLines(sessionId) : [];
      if (lines.length === 0) throw badRequest(CHECKOUT_MESSAGES.emptyCart);
      const info = sessionId ? await customerInfo.find(sessionId) : null;
      // The country on screen when the form names one (a preview), else the saved address's.
      const country = body.shippingCountry || info?.shippingCountry;
      const method = resolveShippingMethod(country, body.shippingMethod, settings.homeCountry);
      let discount: { code: string; percent: number } | null = null;
      if (body.discountCode?.trim()) {
        const check = await checkCode(sessionId, body.discountCode);
        if (check.ok) discount = { code: check.code, percent: check.discountPercent };
      }
      return totalsToWire(totalsFor(lines, method, discount));
    },

  };
}

export type TotalsService = ReturnType<typeof createTotalsService>;
