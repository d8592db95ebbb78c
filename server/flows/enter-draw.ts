import type { FastifyBaseLogger } from 'fastify';
import type { DrawEntryView, EnterDrawBody, EnterDrawResult } from '../../common/contracts/draws';
import { computeTotals } from '../../common/domain/pricing';
import { resolveShippingMethod } from '../../common/domain/shipping';
import type { Mailer, MailMessage } from '../lib/mailer';
import { badRequest, HttpError, notFound } from '../plugins/http-error';
import type { CatalogService } from '../modules/catalog/catalog.service';
import type { DrawsService } from '../modules/draws/draws.service';
import { renderEntryConfirmation } from '../modules/draws/draw-mail';
import type { AuthorisationCard, PaymentGateway } from '../modules/payments/payment-gateway';
import type { SettingsService } from '../modules/settings/settings.service';

export const ENTER_DRAW_MESSAGES = {
  entered: 'Check your e-mail to confirm your entry. Your card is authorised, not charged.',
  cardRequired: 'Please enter your card details.',
  /** 3-D Secure at entry: the first answer when the card's bank asks the shopper to confirm. */
  requiresAction: 'Your bank asks you to confirm this card.',
  authenticationFailed: 'Your bank did not confirm this card, so nothing is held. Please try another card.',
  notConfirmedYet: 'Your bank has not confirmed this card yet. Please enter the draw again.',
  authorisationUnusable: 'This card check cannot be used for this entry. Please enter your card again.',
  amountChanged: 'Your total changed after your bank confirmed the card. Please enter the draw again.',
} as const;

/** An entry's public id as draws.newPublicId makes it (the one an authorisation's metadata names). */
const PUBLIC_ID = /^[0-9a-f]{32}$/;

/** The card held for an entry (step 5), or the bank's 3-D Secure step still to do (answered as it is). */
type EntryHold =
  | { kind: 'held'; publicId: string; authorisationId: string; cardFingerprint: string | null }
  | { kind: 'requires_action'; answer: EnterDrawResult };

interface EnterDrawDeps {
  draws: DrawsService;
  catalog: Pick<CatalogService, 'getProductFresh'>;
  /** The size runs as inventory counts them (ADR 015): a split product takes entries for its run's sizes only. */
  sizeRuns: (productIds: readonly string[]) => Promise<Map<string, Array<{ size: string | null }>>>;
  gateway: PaymentGateway;
  settings: SettingsService;
  mailer: Mailer;
  log: FastifyBaseLogger;
  /** The shop's public address, for the mailed link. */
  baseUrl: string;
}

/**
 * The shopper's side of a draw (docs/draw.md): entering, confirming by the mailed link, changing sizes and
 * withdrawing. Entering, step by step:
 *   1. readDraw       — draws: the draw (404) and its window by the one clock (409)
 *   2. readProduct    — catalog: the piece, its sizes (400 for a size it does not come in); reused for a second
 *   3. onePerPerson   — draws: a live entry of the same folded mailbox is refused (409), before any card is touched
 *                       (asked beside step 1)
 *   4. price          — the draw's fixed price, shipping and tax (common/domain/pricing.ts): the server decides
 *   5. authorise      — payments: the amount held on the card, not charged (402 when declined)
 *   6. recordEntry    — draws: the entry, pending until confirmed (a race on the same mailbox: 409, card released)
 *   7. mailLink       — the confirmation link, after the entry is stored
 */
export function createEnterDrawFlow(deps: EnterDrawDeps) {
  const { draws, catalog, gateway, settings, mailer, log } = deps;
  const base = deps.baseUrl.replace(/\/+$/, '');
  const entryUrl = (token: string) => `${base}/draw-entry/${token}`;

  function sendLater(message: MailMessage): void {
    // The entry is stored: a mail failure is logged (without the address), never undoes it.
    mailer
      .send(message)
      .catch((err: unknown) => log.error({ err }, 'draw: sending the confirmation mail failed'));
  }

  /** The confirmation mail with the entry's link: once the entry is stored, or again for its pending twin. */
  function mailLink(
    entry: { email: string; firstName: string; amountCents: number },
    token: string,
    productName: string,
    closesAt: Date,
  ): void {
    sendLater(
      renderEntryConfirmation({
        to: entry.email,
        firstName: entry.firstName,
        productName,
        amountCents: entry.amountCents,
        closesAt,
        url: entryUrl(token),
        shopName: settings.shopName,
        timeZone: settings.timeZone,
      }),
    );
  }

  // One link mailed again per entry a minute on this instance: a stranger who knows an entrant's address
  // (and solves a proof of work each time) cannot flood their mailbox with it.
  const MAIL_AGAIN_EVERY_MS = 60_000;
  const mailedAgainAt = new Map<string, number>();
  function mayMailAgain(entryId: string): boolean {
    const now = performance.now();
    const last = mailedAgainAt.get(entryId);
    if (last !== undefined && now - last < MAIL_AGAIN_EVERY_MS) return false;
    if (mailedAgainAt.size >= 10_000) mailedAgainAt.clear();
    mailedAgainAt.set(entryId, now);
    return true;
  }

  async function release(authorisationId: string, entryId: string | null): Promise<void> {
    try {
      const result = await gateway.voidAuthorisation(authorisationId);
      if (entryId && result !== 'captured') await draws.setAuthorisationState(entryId, 'voided');
    } catch (err) {
      // Released later by the settle flow's sweep (the entry's authorisation is still marked authorised).
      log.warn({ err }, 'draw: releasing an authorisation failed; retried at the draw');
    }
  }

  /** The piece and the sizes it can be entered for (its run when split into sizes, else the sizes it lists). */
  async function readProduct(productId: string) {
    const [product, runs] = await Promise.all([
      catalog.getProductFresh(productId),
      deps.sizeRuns([productId]),
    ]);
    if (!product) throw notFound(draws.messages.notFound);
    return { product, sizes: { sizes: product.sizes, sizeStock: runs.get(productId) ?? [] } };
  }

  // At a draw's busiest second every entry would read the same piece and size run: an entry reuses what an
  // entry of the last second read (its name for the mail, the sizes it is offered in). The draw itself is
  // read fresh every time (its status and window decide), and sizes are checked again at the allocation,
  // so a piece changed meanwhile costs at most a second of the old sizes (docs/draw.md, Entering at volume).
  const PIECE_REUSE_MS = 1_000;
  const piecesRead = new Map<string, { readAt: number; piece: ReturnType<typeof readProduct> }>();
  function pieceOf(productId: string): ReturnType<typeof readProduct> {
    const now = performance.now();
    const kept = piecesRead.get(productId);
    if (kept && now - kept.readAt < PIECE_REUSE_MS) return kept.piece;
    if (piecesRead.size >= 64) piecesRead.clear(); // only products with a draw under way get here: a handful
    const piece = readProduct(productId);
    piecesRead.set(productId, { readAt: now, piece });
    piece.catch(() => piecesRead.delete(productId));
    return piece;
  }

  /**
   * Step 5, the card held for the entry's total. A first send authorises the card; when its bank asks for
   * 3-D Secure nothing is recorded and the page, once the shopper confirmed, sends the entry again with the
   * authorisation (heldAuthorisation).
   */
  async function authoriseEntry(
    drawId: string,
    amountCents: number,
    body: EnterDrawBody,
  ): Promise<EntryHold> {
    if (body.authorisationId) return heldAuthorisation(drawId, amountCents, body.authorisationId);
    let card: AuthorisationCard;
    if (gateway.provider === 'stripe') {
      if (!body.paymentMethodId) throw badRequest(ENTER_DRAW_MESSAGES.cardRequired);
      card = { kind: 'stripe', paymentMethodId: body.paymentMethodId };
    } else {
      if (!body.card) throw badRequest(ENTER_DRAW_MESSAGES.cardRequired);
      card = { kind: 'offline', ...body.card };
    }
    const publicId = draws.newPublicId();
    const auth = await gateway.authorise({
      amountCents,
      // Nothing personal in the provider's metadata: the draw and the entry's public id.
      metadata: { drawId, drawEntry: publicId },
      idempotencyKey: `draw-entry-${publicId}`,
      card,
    });
    if (auth.ok === false) throw new HttpError(402, auth.message);
    if (auth.ok === 'requires_action') {
      const answer: EnterDrawResult = {
        status: 'requires_action',
        clientSecret: auth.clientSecret,
        authorisationId: auth.authorisationId,
        message: ENTER_DRAW_MESSAGES.requiresAction,
      };
      return { kind: 'requires_action', answer };
    }
    return {
      kind: 'held',
      publicId,
      authorisationId: auth.authorisationId,
      cardFingerprint: auth.cardFingerprint,
    };
  }

  /**
   * The second send after 3-D Secure: the authorisation counts only if it is held now, was made for this draw
   * and this very total, and no entry holds it yet; the entry keeps the public id it was made for. Refusals
   * are 402 (the bank's step failed or is not done) or 409; an unused hold is then released by `enter`.
   */
  async function heldAuthorisation(
    drawId: string,
    amountCents: number,
    authorisationId: string,
  ): Promise<EntryHold> {
    const auth = await gateway.retrieveAuthorisation(authorisationId);
    const publicId = auth?.metadata.drawEntry ?? '';
    if (!auth || auth.metadata.drawId !== drawId || !PUBLIC_ID.test(publicId)) {
      throw new HttpError(409, ENTER_DRAW_MESSAGES.authorisationUnusable);
    }
    if (await draws.authorisationInUse(auth.id))
      throw new HttpError(409, ENTER_DRAW_MESSAGES.authorisationUnusable);
    if (auth.state === 'failed') throw new HttpError(402, ENTER_DRAW_MESSAGES.authenticationFailed);
    if (auth.state === 'requires_action') throw new HttpError(402, ENTER_DRAW_MESSAGES.notConfirmedYet);
    if (auth.state !== 'authorised') throw new HttpError(409, ENTER_DRAW_MESSAGES.authorisationUnusable);
    if (auth.amount !== amountCents) throw new HttpError(409, ENTER_DRAW_MESSAGES.amountChanged);
    return { kind: 'held', publicId, authorisationId: auth.id, cardFingerprint: auth.cardFingerprint };
  }

  /**
   * A re-sent entry refused at any step leaves its hold unused: released, unless it is another draw's or an
   * entry holds it (a twin send that got in first). Best effort: Stripe drops an uncaptured hold after 7 days.
   */
  async function releaseUnused(drawId: string, authorisationId: string): Promise<void> {
    try {
      const auth = await gateway.retrieveAuthorisation(authorisationId);
      if (!auth || auth.metadata.drawId !== drawId) return;
      if (auth.state !== 'authorised' && auth.state !== 'requires_action') return;
      if (await draws.authorisationInUse(authorisationId)) return;
      await gateway.voidAuthorisation(authorisationId);
    } catch (err) {
      log.warn({ err }, 'draw: releasing an unused authorisation failed');
    }
  }

  /** Entering, step by step (the list at the top of this file). */
  async function enterSteps(drawId: string, body: EnterDrawBody): Promise<EnterDrawResult> {
    const keys = draws.identityKeys(body);
    // The draw and the one-per-person check side by side (both need only the draw's id); the draw answers first.
    const [draw, entered] = await Promise.all([
      draws.findDraw(drawId),
      draws.liveEntry(drawId, keys.mailboxKey),
    ]);
    if (!draw) throw notFound(draws.messages.notFound);
    await draws.assertEnterable(draw);

    const { product, sizes: choices } = await pieceOf(draw.productId);
    const sizes = draws.checkSizes(choices, body.size, body.secondSize);
    if (entered) {
      // Not confirmed yet: the first mail may never have come (lost, filtered, or the shop stopped before it
      // went out). The same link goes out again, at most once a minute, so the entrant is never stuck.
      const token = entered.status === 'pending' ? draws.linkTokenOf(entered) : null;
      if (token && mayMailAgain(entered.id)) {
        mailLink(entered, token, product.name, draw.closesAt);
        throw new HttpError(409, draws.messages.linkSentAgain);
      }
      throw new HttpError(409, draws.messages.alreadyEntered);
    }

    const shippingMethod = resolveShippingMethod(body.shippingCountry, body.shippingMethod);
    const totals = computeTotals({
      lines: [{ unitPriceCents: draw.priceCents, quantity: 1 }],
      discount: null,
      shippingMethod,
      shippingRateCents: settings.rate(shippingMethod).cents,
      freeShippingThresholdCents: settings.freeShippingThresholdCents,
      taxRate: settings.taxRate,
    });

    const auth = await authoriseEntry(draw.id, totals.total, body);
    if (auth.kind === 'requires_action') return auth.answer;
    const { publicId } = auth;

    let recorded;
    try {
      recorded = await draws.recordEntry({
        drawId: draw.id,
        publicId,
        ...keys,
        cardKey: draws.cardKey(auth.cardFingerprint),
        email: body.email,
        firstName: body.firstName,
        lastName: body.lastName,
        phone: body.phone ?? null,
        shippingAddress: body.shippingAddress,
        shippingCity: body.shippingCity,
        shippingState: body.shippingState,
        shippingZip: body.shippingZip,
        shippingCountry: body.shippingCountry,
        shippingMethod,
        ...sizes,
        amountCents: totals.total,
        subtotalCents: totals.subtotal,
        shippingCents: totals.shipping,
        taxCents: totals.tax,
        authorisationId: auth.authorisationId,
      });
    } catch (err) {
      // A re-sent entry's hold is released by `enter` (unless a twin send's entry holds it).
      if (!body.authorisationId) await release(auth.authorisationId, null);
      throw err;
    }

    mailLink(recorded.entry, recorded.token, product.name, draw.closesAt);
    return { publicId, status: 'pending', message: ENTER_DRAW_MESSAGES.entered };
  }

  return {
    /** Entering (enterSteps); a re-sent entry (3-D Secure) that is refused releases its unused hold. */
    async enter(drawId: string, body: EnterDrawBody): Promise<EnterDrawResult> {
      if (!body.authorisationId) return enterSteps(drawId, body);
      try {
        return await enterSteps(drawId, body);
      } catch (err) {
        await releaseUnused(drawId, body.authorisationId);
        throw err;
      }
    },

    async view(token: string): Promise<DrawEntryView> {
      const { entry, draw } = await draws.entryByToken(token);
      return draws.viewOf(entry, draw);
    },

    confirm: (token: string) => draws.confirm(token),

    /** New sizes, checked against the piece's sizes as they are now. */
    async changeSizes(
      token: string,
      change: { size?: string | null; secondSize?: string | null },
    ): Promise<DrawEntryView> {
      const { entry, draw } = await draws.entryByToken(token);
      const { sizes: choices } = await readProduct(draw.productId);
      const sizes = draws.checkSizes(
        choices,
        change.size === undefined ? entry.size : change.size,
        change.secondSize === undefined ? entry.secondSize : change.secondSize,
      );
      return draws.changeSizes(token, sizes);
    },

    /** Withdraws and releases the card at once (a failed release is retried by the settle flow). */
    async withdraw(token: string): Promise<DrawEntryView> {
      const { entry, draw } = await draws.withdraw(token);
      if (entry.authorisationState === 'authorised') await release(entry.authorisationId, entry.id);
      const { entry: fresh } = await draws.entryByToken(token);
      return draws.viewOf(fresh, draw);
    },
  };
}

export type EnterDrawFlow = ReturnType<typeof createEnterDrawFlow>;
