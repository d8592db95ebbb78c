import type { DbOrTx, Tx } from '../../db/client';
import type { ShippingMethod } from '../../../common/contracts/settings';
import type { checkDiscountCode } from '../../../common/domain/discount';
import type { HttpError } from '../../lib/http-error';
import type { PricedCartLine } from '../../lib/priced-cart-line';

/**
 * What checkout needs of other modules, as small ports (it imports none of them): server/services.ts
 * passes the cart, inventory, discounts, purchase-limits, settings and payments services, which fit.
 */

/** A cart line priced at today's price: what checkout snapshots and charges for (the cart's pricedLines). */
export type CheckoutCartLine = PricedCartLine;

export interface CheckoutCart {
  pricedLines(sessionId: string): Promise<CheckoutCartLine[]>;
}

/** Units per product id. */
export type Units = ReadonlyMap<string, number>;

/** The stock side of a hold (the inventory module, the only writer of stock). */
export interface CheckoutStock {
  /** Records the units moveSizes took for the checkout, per size variant. */
  recordHolds(tx: Tx, checkoutId: string, taken: readonly HeldSizeUnits[]): Promise<void>;
  /** Ends the checkouts' holds: the units to give back to their sizes (moveSizes). */
  releaseHolds(tx: Tx, checkoutIds: readonly string[]): Promise<HeldSizeUnits[]>;
  consumeHolds(tx: Tx, checkoutIds: readonly string[]): Promise<void>;
  heldFor(checkoutIds: readonly string[]): Promise<Map<string, number>>;
  /**
   * Gives back `release` to its sizes and takes each `take` line from its size (ADR 015), all or nothing:
   * the first product and size short, else what was taken per size variant.
   */
  moveSizes(
    tx: Tx,
    release: readonly HeldSizeUnits[],
    take: ReadonlyArray<{ productId: string; size: string | null; colour?: string | null; quantity: number }>,
  ): Promise<
    | { short: { productId: string; size: string | null }; taken?: undefined }
    | { short: null; taken: HeldSizeUnits[] }
  >;
}

/** Units held of one product's size variant (null: held through the product row alone). */
export interface HeldSizeUnits {
  productId: string;
  variantId: string | null;
  quantity: number;
}

/** A discount code row as common/domain's checks read it. */
export type DiscountCodeRow = NonNullable<Parameters<typeof checkDiscountCode>[0]>;

export interface CheckoutDiscounts {
  find(code: string, tx?: DbOrTx): Promise<DiscountCodeRow | null>;
  claim(tx: Tx, code: string): Promise<boolean>;
  release(tx: Tx, code: string): Promise<void>;
  countUse(tx: Tx, code: string): Promise<void>;
}

/** Who is buying, as limits count it (hashed by the purchase-limits module). */
export interface LimitShopper {
  sessionId: string;
  customer: { email: string; shippingAddress: string; shippingZip: string; shippingCountry: string; shippingCity?: string };
}
export interface LimitLine {
  productId: string;
  name: string;
  quantity: number;
}

/** Store credit (the store-credit module's service fits it): held in the hold's transaction, released with the checkout. */
export interface CheckoutCredit {
  /** Holds min(balance, total) of the mailbox's credit for the checkout, under the ledger owner's lock; the cents held. */
  hold(tx: Tx, h: { email: string; checkoutId: string; totalCents: number }): Promise<number>;
  /** The checkout's held credit back (its payment failed, lapsed or was replaced); 0 when it held none. */
  release(tx: Tx, checkoutId: string): Promise<number>;
}

export interface CheckoutLimits {
  checkHold(
    tx: Tx,
    shopper: LimitShopper,
    lines: ReadonlyArray<LimitLine & { maxPerShopper: number }>,
    now: Date,
  ): Promise<(checkoutId: string) => Promise<void>>;
  cooldownRefusal(productName: string, lapsedAt: Date, now: Date): HttpError | null;
  endHolds(tx: Tx, checkoutIds: readonly string[], how: { lapsed: boolean } | { replacedBy: ReadonlySet<string> }): Promise<void>;
  limitRefusal(
    checkout: LimitShopper & { checkoutId: string; lines: readonly LimitLine[] },
    cardFingerprint: string | null,
  ): Promise<{ productName: string; message: string } | null>;
}

export interface CheckoutSettings {
  holdMinutes: number;
  freeShippingThresholdCents: number;
  /** SHOP_COUNTRY: where the domestic rates apply (common/domain/shipping.ts). */
  homeCountry: string;
  taxRate: number;
  rate(method: ShippingMethod): { cents: number };
}

/** The payment provider as checkout asks it (the payments module's gateway). */
export interface CheckoutIntent {
  id: string;
  clientSecret: string | null;
  status: string;
}
export interface CheckoutGateway {
  readonly provider: 'offline' | 'stripe';
  createIntent(input: { amountCents: number; metadata: Record<string, string>; idempotencyKey: string }): Promise<CheckoutIntent>;
  retrieveIntent(id: string): Promise<CheckoutIntent | null>;
  cancelIntent(id: string): Promise<void>;
}
