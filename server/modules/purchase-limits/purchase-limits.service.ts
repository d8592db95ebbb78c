import crypto from 'node:crypto';
import type { Db, DbOrTx, Tx } from '../../db/client';
import { deliveryAddressKey, deliveryAddressKeyUsRules, mailboxKey } from '../../../common/domain/identity';
import { cooldownMessage, holdCooldownMs, overLimitMessage, withinLimit } from '../../../common/domain/purchase-limit';
import { conflict, HttpError } from '../../lib/http-error';
import type { Clock } from '../../lib/db-clock';
import type { KeyService } from '../../lib/keys';
import {
  consumeClaims,
  endHeldClaims,
  insertClaims,
  latestLapses,
  listClaimsOf,
  lockClaimKeys,
  sessionUnits,
  sumClaimedUnits,
} from './purchase-limits.repository';

/** Who is buying: the session and the details the checkout was made with (hashed before they are stored). */
export interface ClaimShopper {
  sessionId: string;
  /** The town, when known, is only used to tell it from the street line ('12 Brick Lane, London'). */
  customer: { email: string; shippingAddress: string; shippingZip: string; shippingCountry: string; shippingCity?: string };
}

/** A checkout line as far as limits care (several sizes of one product count together). */
export interface ClaimLine {
  productId: string;
  name: string;
  quantity: number;
}

/** A line over its product's limit: the order is refused (the payment refunded) with this message. */
export interface LimitViolation {
  productName: string;
  message: string;
}

type Priced = ClaimLine & { maxPerShopper: number };

/** Units per product, in product-id order, with the first line's name. */
function byProduct<T extends ClaimLine>(lines: readonly T[]): Array<T & { quantity: number }> {
  const out = new Map<string, T & { quantity: number }>();
  for (const l of lines) {
    const seen = out.get(l.productId);
    if (seen) seen.quantity += l.quantity;
    else out.set(l.productId, { ...l });
  }
  return [...out.values()].sort((a, b) => (a.productId < b.productId ? -1 : a.productId > b.productId ? 1 : 0));
}

/** How identities were keyed before folding (ADR 013): still counted, so claims made then keep counting. */
const legacyFold = (s: string) => s.toLowerCase().replace(/[.,#]/g, ' ').replace(/\s+/g, ' ').trim();

/**
 * Per-shopper limits (docs/product.md §9, ADR 013): every checkout claims its units under
 * each identity of its shopper (session, e-mail, shipping address; the card once paid), and a shopper's
 * count for a product is what any of those identities holds or bought. E-mails and addresses are
 * stored only as keyed hashes. Callers pass their transaction: claims move with the holds they follow.
 */
/** What limits read of the catalogue: each product's per-shopper limit, fresh (the catalog module's service). */
export interface LimitsCatalog {
  getProductsFresh(ids: readonly string[]): Promise<ReadonlyMap<string, { maxPerShopper: number }>>;
}

export function createPurchaseLimitsService(deps: {
  db: Db;
  catalog: LimitsCatalog;
  /** The database's clock: a lapse is dated by it, and the cooldown counts from then (server/lib/db-clock.ts). */
  clock: Clock;
  /** The shop's key service: keys the identity hashes, so the table never holds a guessable e-mail hash. */
  keys: KeyService;
  holdMinutes: number;
}) {
  const { db, catalog } = deps;
  const clock = deps.clock;
  const key = deps.keys.derive('purchase-limit identities');
  const hash = (s: string) => crypto.createHmac('sha256', key).update(s).digest('hex');
  const cooldownMs = holdCooldownMs(deps.holdMinutes);

  /**
   * The identities a checkout's claims are written under: the session, the folded mailbox and the folded
   * delivery address (common/domain/identity.ts), so the spellings of one inbox or one doorstep are one.
   */
  function identitiesOf(shopper: ClaimShopper): string[] {
    const c = shopper.customer;
    return [
      `session:${shopper.sessionId}`,
      `mailbox:${hash(mailboxKey(c.email))}`,
      `delivery:${hash(deliveryAddressKey({ line: c.shippingAddress, postalCode: c.shippingZip, country: c.shippingCountry, city: c.shippingCity }))}`,
    ];
  }

  /**
   * The identities counted against a checkout: its own, and the keys claims were written under before
   * folding (hashes cannot be refolded, so a claim made then still counts for the same spelling).
   */
  function countedIdentities(shopper: ClaimShopper): string[] {
    const c = shopper.customer;
    return [
      ...identitiesOf(shopper),
      `email:${hash(c.email.trim().toLowerCase())}`,
      `address:${hash([legacyFold(c.shippingAddress), legacyFold(c.shippingZip), legacyFold(c.shippingCountry)].join('|'))}`,
      // Outside the US the key follows the country's rules since ADR 023; claims made before were keyed by
      // the US rules, so that key of this spelling still counts (for a US address it is the same key).
      `delivery:${hash(deliveryAddressKeyUsRules({ line: c.shippingAddress, postalCode: c.shippingZip, country: c.shippingCountry }))}`,
    ].filter((id, i, all) => all.indexOf(id) === i);
  }

  const lockKeys = (lines: readonly ClaimLine[], identities: readonly string[]) =>
    lines.flatMap((l) => identities.map((id) => `${l.productId}|${id}`));

  const orderIdentities = (shopper: ClaimShopper, cardFingerprint: string | null) => [
    ...identitiesOf(shopper),
    ...(cardFingerprint ? [`card:${cardFingerprint}`] : []),
  ];
  const countedOrderIdentities = (shopper: ClaimShopper, cardFingerprint: string | null) => [
    ...countedIdentities(shopper),
    ...(cardFingerprint ? [`card:${cardFingerprint}`] : []),
  ];

  /** The first product the checkout's units would take over its limit, counting other checkouts only. */
  async function findViolation(
    tx: DbOrTx,
    checkoutId: string,
    products: readonly ClaimLine[],
    identities: readonly string[],
  ): Promise<LimitViolation | null> {
    const ids = products.map((p) => p.productId);
    const limits = await catalog.getProductsFresh(ids);
    const claimed = await sumClaimedUnits(tx, ids, identities, checkoutId);
    for (const p of products) {
      const limit = limits.get(p.productId)?.maxPerShopper;
      if (limit !== undefined && !withinLimit(claimed.get(p.productId) ?? 0, p.quantity, limit))
        return { productName: p.name, message: overLimitMessage(p.name, limit) };
    }
    return null;
  }

  return {
    identitiesOf,

    /**
     * At hold, inside the transaction that takes the stock: waits for the shopper's locks, refuses
     * (409, nothing written) a product whose hold this shopper let lapse within the cooldown, or that
     * would go over its limit. Returns what writes the claims once the checkout row exists.
     */
    async checkHold(
      tx: Tx,
      shopper: ClaimShopper,
      lines: readonly Priced[],
      now: Date,
    ): Promise<(checkoutId: string) => Promise<void>> {
      const products = byProduct(lines);
      const identities = identitiesOf(shopper);
      const ids = products.map((p) => p.productId);
      await lockClaimKeys(tx, lockKeys(products, identities));

      // The cooldown is the session's: another session of the shopper may still buy within the limit.
      const lapses = await latestLapses(tx, ids, [identities[0]!], new Date(now.getTime() - cooldownMs));
      for (const p of products) {
        const lapsed = lapses.get(p.productId);
        if (!lapsed) continue;
        const left = lapsed.getTime() + cooldownMs - now.getTime();
        throw new HttpError(409, cooldownMessage(p.name, left), { 'retry-after': String(Math.ceil(left / 1000)) });
      }
      const claimed = await sumClaimedUnits(tx, ids, countedIdentities(shopper), null);
      for (const p of products) {
        if (!withinLimit(claimed.get(p.productId) ?? 0, p.quantity, p.maxPerShopper))
          throw conflict(overLimitMessage(p.name, p.maxPerShopper));
      }
      return (checkoutId) =>
        insertClaims(
          tx,
          products.flatMap((p) =>
            identities.map((identity) => ({ productId: p.productId, checkoutId, identity, quantity: p.quantity, status: 'held' as const })),
          ),
        );
    },

    /**
     * A lapse that has not been released yet (the hold's time passed, the release job has not run): the
     * same refusal as after the release, counted from the hold's deadline.
     */
    cooldownRefusal(productName: string, lapsedAt: Date, now: Date): HttpError | null {
      const left = lapsedAt.getTime() + cooldownMs - now.getTime();
      if (left <= 0) return null;
      return new HttpError(409, cooldownMessage(productName, left), { 'retry-after': String(Math.ceil(left / 1000)) });
    },

    /**
     * At order, inside the order's transaction: the card joins the shopper's identities; when the units
     * claimed under any of them by other checkouts leave no room for this one, returns the violation
     * (nothing written: the caller refuses the order). Else the checkout's claims become consumed.
     */
    async consumeForOrder(
      tx: Tx,
      checkout: ClaimShopper & { checkoutId: string; lines: readonly ClaimLine[] },
      cardFingerprint: string | null,
    ): Promise<LimitViolation | null> {
      const products = byProduct(checkout.lines);
      const identities = orderIdentities(checkout, cardFingerprint);
      await lockClaimKeys(tx, lockKeys(products, identities));
      const violation = await findViolation(tx, checkout.checkoutId, products, countedOrderIdentities(checkout, cardFingerprint));
      if (violation) return violation;
      const existing = new Set((await listClaimsOf(tx, checkout.checkoutId)).map((c) => `${c.productId}|${c.identity}`));
      await consumeClaims(tx, checkout.checkoutId);
      await insertClaims(
        tx,
        products.flatMap((p) =>
          identities
            .filter((identity) => !existing.has(`${p.productId}|${identity}`))
            .map((identity) => ({ productId: p.productId, checkoutId: checkout.checkoutId, identity, quantity: p.quantity, status: 'consumed' as const })),
        ),
      );
      return null;
    },

    /**
     * An order's delivery address changed after the sale (the change-order-address flow's transaction): the new
     * address joins the identities the order's units count under. Refused (the violation, nothing written) when
     * the units held or bought by other checkouts under any identity of the order — its own and the new address,
     * folded — leave no room for the order's own; else its claims are written under the new address too (the
     * old one keeps them: it was the buyer's when they bought).
     */
    async addDeliveryAddress(
      tx: Tx,
      order: { checkoutId: string | null; sessionId: string; email: string; lines: readonly ClaimLine[] },
      address: { shippingAddress: string; shippingZip: string; shippingCountry: string; shippingCity?: string },
    ): Promise<LimitViolation | null> {
      const products = byProduct(order.lines);
      if (products.length === 0) return null;
      const shopper: ClaimShopper = { sessionId: order.sessionId, customer: { email: order.email, ...address } };
      const own = order.checkoutId ? await listClaimsOf(tx, order.checkoutId) : [];
      const identities = [...new Set([...own.map((c) => c.identity), ...countedIdentities(shopper)])];
      await lockClaimKeys(tx, lockKeys(products, identities));
      const violation = await findViolation(tx, order.checkoutId ?? crypto.randomUUID(), products, identities);
      if (violation || !order.checkoutId) return violation;
      const delivery = identitiesOf(shopper)[2]!;
      const existing = new Set(own.map((c) => `${c.productId}|${c.identity}`));
      await insertClaims(
        tx,
        products
          .filter((p) => !existing.has(`${p.productId}|${delivery}`))
          .map((p) => ({ productId: p.productId, checkoutId: order.checkoutId!, identity: delivery, quantity: p.quantity, status: 'consumed' as const })),
      );
      return null;
    },

    /** Read only: why a refunded checkout was refused, when it was its limit (null: it was not). */
    limitRefusal(
      checkout: ClaimShopper & { checkoutId: string; lines: readonly ClaimLine[] },
      cardFingerprint: string | null,
    ): Promise<LimitViolation | null> {
      return findViolation(db, checkout.checkoutId, byProduct(checkout.lines), countedOrderIdentities(checkout, cardFingerprint));
    },

    /**
     * The holds of these checkouts ended without an order. A lapse (the hold expired, or the shopper's
     * next attempt dropped the product) releases the claims, kept and dated: the cooldown counts from
     * then. A claim on a product the next attempt holds again, or of an attempt that never reached the
     * gateway, is removed: superseded, nothing lapsed.
     */
    async endHolds(
      tx: Tx,
      checkoutIds: readonly string[],
      how: { lapsed: boolean } | { replacedBy: ReadonlySet<string> },
    ): Promise<void> {
      const at = clock.sqlNow();
      if ('lapsed' in how) {
        await endHeldClaims(tx, checkoutIds, how.lapsed ? 'released' : 'removed', { at });
        return;
      }
      const carried = [...how.replacedBy];
      await endHeldClaims(tx, checkoutIds, 'removed', { only: carried, at });
      await endHeldClaims(tx, checkoutIds, 'released', { at });
    },

    /**
     * At cart add: the session's units of the product (bought, and the larger of what its cart has and
     * what its open checkout holds — one is a snapshot of the other) plus `adding` within the limit.
     */
    async assertCartRoom(
      sessionId: string | null,
      product: { id: string; name: string; maxPerShopper: number },
      adding: number,
      inCart: number,
      tx: DbOrTx = db,
    ): Promise<void> {
      const own = sessionId ? await sessionUnits(tx, product.id, `session:${sessionId}`) : { held: 0, consumed: 0 };
      if (!withinLimit(own.consumed + Math.max(inCart, own.held), adding, product.maxPerShopper))
        throw conflict(overLimitMessage(product.name, product.maxPerShopper));
    },
  };
}

export type PurchaseLimitsService = ReturnType<typeof createPurchaseLimitsService>;
