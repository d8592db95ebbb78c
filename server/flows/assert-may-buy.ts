import { dropMessages } from '../../common/domain/drop';
import { isReleased, releaseMessages } from '../../common/domain/release';
import { stockMessages } from '../../common/domain/stock';
import type { Clock } from '../lib/db-clock';
import { conflict, HttpError } from '../lib/http-error';

/**
 * May this shopper take these pieces? The ONE check of every path that adds or holds (cart add, line
 * raise, payment; docs/architecture.md, Flows), in five named steps:
 *   0. notByDraw — a product whose draw is announced or under way is sold only through its draw (409;
 *      docs/draw.md): its pieces are the draw's
 *   1. admitted  — inside a drop window, the session's admission pass for the product (403; ADR 010)
 *   2. released  — the release time has come, by the database's clock; a valid pass is proof of it (409)
 *   3. unreserved — a returned piece kept for the waiting list goes only to its claimant (409; ADR 011)
 *   4. withinLimit — what the session bought, holds and has in its cart, plus what it adds, within the
 *      product's per-shopper limit (409; docs/product.md §9). The authoritative count is taken again
 *      under the session's lock by the module that writes (cart line, hold).
 */
export interface MayBuyDeps {
  /** Release is decided by the database's clock (server/lib/db-clock.ts). */
  clock: Clock;
  admission: {
    /** Throws 403 without a needed pass; answers the products whose valid pass it saw. */
    assertAdmitted(
      sessionId: string | null,
      productIds: readonly string[],
      passes: string | null,
    ): Promise<ReadonlySet<string> | void>;
  };
  reservations: {
    /** With the size wanted, also refuses when every piece left of that size is kept (ADR 015). */
    assertNotReserved(productId: string, claimToken: string | null, size?: string | null): Promise<void>;
  };
  draws: {
    /** The products among these whose sale a draw owns now (common/domain/draw-lifecycle.ts). */
    productsSoldByDraw(productIds: readonly string[]): Promise<ReadonlySet<string>>;
  };
  /**
   * Inside a live drop, every piece left of the product is in a checkout (ADR 010): a lapsed hold or a refunded
   * payment may put one back, so a sold-out refusal is told as such. Absent: never.
   */
  dropInCheckouts?(productId: string): Promise<boolean>;
  limits: {
    assertCartRoom(
      sessionId: string | null,
      product: { id: string; name: string; maxPerShopper: number },
      adding: number,
      inCart: number,
    ): Promise<void>;
  };
}

/** The parts of the request-scoped shopper (server/plugins/shopper.ts) the check reads. */
export interface BuyingShopper {
  sessionId: string | null;
  passes: string | null;
  claimToken: string | null;
}

export interface WantedPiece {
  product: { id: string; name: string; releaseAt: string | null; maxPerShopper: number };
  /** The size wanted (as asked, or the line's), or null. */
  size?: string | null;
  /** Units this step adds (0 for a payment: it holds what the cart has). */
  adding: number;
  /** Units of the product (all sizes) the session's cart has now. */
  inCart: number;
}

export async function assertMayBuy(
  deps: MayBuyDeps,
  shopper: BuyingShopper,
  pieces: readonly WantedPiece[],
): Promise<void> {
  await notByDraw(deps, pieces);
  const passed = await admitted(deps, shopper, pieces);
  released(deps, pieces, passed);
  await unreserved(deps, shopper, pieces);
  await withinLimit(deps, shopper, pieces);
}

/** What a shopper reads when a product is sold by draw. */
export const soldByDrawMessage = (name: string) => `${name} is sold by draw: enter the draw on its page.`;

async function notByDraw(deps: MayBuyDeps, pieces: readonly WantedPiece[]): Promise<void> {
  const byDraw = await deps.draws.productsSoldByDraw([...new Set(pieces.map((p) => p.product.id))]);
  const first = pieces.find((p) => byDraw.has(p.product.id));
  if (first) throw conflict(soldByDrawMessage(first.product.name));
}

async function admitted(
  deps: MayBuyDeps,
  shopper: BuyingShopper,
  pieces: readonly WantedPiece[],
): Promise<ReadonlySet<string>> {
  const ids = pieces.map((p) => p.product.id);
  return (await deps.admission.assertAdmitted(shopper.sessionId, ids, shopper.passes)) ?? new Set<string>();
}

function released(deps: MayBuyDeps, pieces: readonly WantedPiece[], passed: ReadonlySet<string>): void {
  const now = deps.clock.now();
  const early = pieces.find((p) => !passed.has(p.product.id) && !isReleased(p.product, now));
  if (early) throw conflict(releaseMessages.notYet(early.product.name, early.product.releaseAt!));
}

async function unreserved(
  deps: MayBuyDeps,
  shopper: BuyingShopper,
  pieces: readonly WantedPiece[],
): Promise<void> {
  const seen = new Set<string>();
  for (const p of pieces) {
    const key = `${p.product.id}|${p.size ?? ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    await deps.reservations.assertNotReserved(p.product.id, shopper.claimToken, p.size ?? null);
  }
}

async function withinLimit(
  deps: MayBuyDeps,
  shopper: BuyingShopper,
  pieces: readonly WantedPiece[],
): Promise<void> {
  // Sizes of one product share its limit: once per product, with everything this step adds.
  const byProduct = new Map<string, WantedPiece>();
  for (const p of pieces) {
    const seen = byProduct.get(p.product.id);
    byProduct.set(p.product.id, seen ? { ...seen, adding: seen.adding + p.adding } : p);
  }
  for (const p of byProduct.values())
    await deps.limits.assertCartRoom(shopper.sessionId, p.product, p.adding, p.inCart);
}

/**
 * Runs a step that may refuse with "Sorry, P is sold out" / "just sold out" (the cart's and the hold's stock
 * checks); while P's drop is live with every piece left in a checkout the shopper is told to stay instead,
 * never "sold out" while a piece can come back (docs/product.md §9, Drops).
 */
export async function tellInCheckouts<T>(
  deps: MayBuyDeps,
  products: ReadonlyArray<{ id: string; name: string }>,
  step: () => Promise<T>,
): Promise<T> {
  try {
    return await step();
  } catch (err) {
    if (!(err instanceof HttpError) || err.statusCode !== 409 || !deps.dropInCheckouts) throw err;
    const named = products.find((p) => err.message === stockMessages.soldOut(p.name) || err.message === stockMessages.justSoldOut(p.name));
    if (named && (await deps.dropInCheckouts(named.id))) throw conflict(dropMessages.inCheckouts(named.name));
    throw err;
  }
}

/** A request's shopper as the check reads it (the session read once, cached by the session plugin). */
export async function buyingShopper(shopper: {
  sessionId(): Promise<string | null>;
  readonly passes: string | null;
  readonly claimToken: string | null;
}): Promise<BuyingShopper> {
  return { sessionId: await shopper.sessionId(), passes: shopper.passes, claimToken: shopper.claimToken };
}
