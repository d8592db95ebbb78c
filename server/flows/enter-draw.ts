import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { ConfirmDrawEntryBody, DrawEntryView, EnterDrawBody, EnterDrawResult } from '../../common/contracts/draws';
import { poBoxRefusal } from '../../common/domain/po-box';
import { computeTotals } from '../../common/domain/pricing';
import { resolveShippingMethod } from '../../common/domain/shipping';
import type { Mailer, MailMessage } from '../lib/mailer';
import { absoluteUrl } from '../lib/mail-template';
import { badRequest, HttpError, notFound } from '../lib/http-error';
import type { CatalogService } from '../modules/catalog/catalog.service';
import type { DrawsService } from '../modules/draws/draws.service';
import { renderEntryConfirmation } from '../modules/draws/draw-mail';
import type { AuthorisationCard, PaymentGateway } from '../modules/payments/payment-gateway';
import type { SettingsService } from '../modules/settings/settings.service';

export const ENTER_DRAW_MESSAGES = {
  entered:
    'Check your e-mail to confirm your entry. Your card is authorised when you confirm, and charged only if you win.',
  cardRequired: 'Please enter your card details.',
  /**
   * Every decline at confirmation, whatever the bank's reason (docs/security.md, "Card testing"): the reason
   * would tell a card tester which stolen numbers are live.
   */
  cardNotAuthorised: 'Your card could not be authorised. Try another card.',
  tooManyDeclines: (seconds: number) =>
    `Too many cards could not be authorised. Please try again in ${seconds} seconds.`,
  /** 3-D Secure at confirmation: the card's bank asks the shopper to confirm (`cardAction`). */
  requiresAction: 'Your bank asks you to confirm this card.',
  authorisationUnusable: 'This card check cannot be used for this entry. Please enter your card again.',
} as const;

/** Who is entering or confirming: what the decline budget counts against (never stored in clear). */
export interface DrawShopper {
  /** The network address as the shopper plugin folds it. */
  address: string;
  sessionId: string | null;
}

/**
 * The decline budget (docs/security.md, "Card testing"; filled with the rate-limit module's in services.ts):
 * a few declines per address, session and card in a window, then 429.
 */
export interface CardDeclineBudget {
  waitSeconds(parties: { address: string; sessionId: string | null; cardKey: string | null }): Promise<number>;
  spend(parties: { address: string; sessionId: string | null; cardKey: string | null }): Promise<void>;
}

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
  declines: CardDeclineBudget;
}

/**
 * The shopper's side of a draw (docs/draw.md): entering, confirming by the mailed link, changing sizes and
 * withdrawing. Entering, step by step:
 *   0. declineBudget  — an address or session whose cards were declined too often lately waits (429)
 *   1. readDraw       — draws: the draw (404) and its window by the one clock (409)
 *      (a P.O. box address is refused here: 400; a drawn piece is a limited edition)
 *   2. readProduct    — catalog: the piece, its sizes (400 for a size it does not come in); reused for a second
 *   3. onePerPerson   — draws: a live entry of the same folded mailbox is refused (409), before any card is touched
 *                       (asked beside step 1)
 *   4. price          — the draw's fixed price, shipping and tax (common/domain/pricing.ts): the server decides
 *   5. prepareCard    — payments: the card kept on an intent for the confirmation; the bank is NOT asked, nothing
 *                       is held (docs/security.md, "Card testing": an entry is no card-testing oracle)
 *   6. recordEntry    — draws: the entry, pending until confirmed (a race on the same mailbox: 409, card released)
 *   7. mailLink       — the confirmation link, after the entry is stored
 * Confirming (the mailed link): the decline budget (429), then the card authorised (the amount held, not
 * charged; 3-D Secure answered as `cardAction`), then pending → confirmed. Every decline reads the same (402).
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
    product: { name: string; images: readonly string[] },
    closesAt: Date,
  ): void {
    sendLater(
      renderEntryConfirmation({
        to: entry.email,
        firstName: entry.firstName,
        productName: product.name,
        productImageUrl: absoluteUrl(base, product.images[0]),
        amountCents: entry.amountCents,
        closesAt,
        url: entryUrl(token),
        // Who the mail is from: the one mail template's mark, shop and refund-policy links, support line.
        shopName: { shopName: settings.shopName, shopUrl: base, supportEmail: settings.publicSettings.supportEmail },
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

  /** An address or session (and card, when known) with too many recent declines waits: 429 + Retry-After. */
  async function assertDeclineBudget(who: DrawShopper, cardKey: string | null): Promise<void> {
    const wait = await deps.declines.waitSeconds({ ...who, cardKey });
    if (wait > 0) {
      throw new HttpError(429, ENTER_DRAW_MESSAGES.tooManyDeclines(wait), {
        'retry-after': String(wait),
        'cache-control': 'no-store',
      });
    }
  }

  /** The card a body names (Stripe: Stripe.js's PaymentMethod; offline: a test card), or 400. */
  function cardOf(body: { paymentMethodId?: string; card?: EnterDrawBody['card'] }): AuthorisationCard {
    if (gateway.provider === 'stripe') {
      if (!body.paymentMethodId) throw badRequest(ENTER_DRAW_MESSAGES.cardRequired);
      return { kind: 'stripe', paymentMethodId: body.paymentMethodId };
    }
    if (!body.card) throw badRequest(ENTER_DRAW_MESSAGES.cardRequired);
    return { kind: 'offline', ...body.card };
  }

  /**
   * Step 5: the card kept for the confirmation. Nothing reaches the bank, so an entry says nothing about the
   * card: a bad card is found only once the mailbox is confirmed, and then in one message for every reason.
   */
  async function prepareCard(
    drawId: string,
    publicId: string,
    amountCents: number,
    card: AuthorisationCard,
    attempt: string,
  ): Promise<{ authorisationId: string; cardKey: string | null }> {
    const prepared = await gateway.prepareAuthorisation({
      amountCents,
      // Nothing personal in the provider's metadata: the draw and the entry's public id.
      metadata: { drawId, drawEntry: publicId },
      idempotencyKey: `draw-entry-${publicId}${attempt}`,
      card,
    });
    if (prepared.ok === false) throw badRequest(prepared.message);
    return { authorisationId: prepared.authorisationId, cardKey: draws.cardKey(prepared.cardFingerprint) };
  }

  /** Entering, step by step (the list at the top of this file). */
  async function enterSteps(drawId: string, body: EnterDrawBody, who: DrawShopper): Promise<EnterDrawResult> {
    // Entries never authorise now: an authorisation from an older page's 3-D Secure step fits none.
    if (body.authorisationId && !body.card && !body.paymentMethodId) {
      throw new HttpError(409, ENTER_DRAW_MESSAGES.authorisationUnusable);
    }
    await assertDeclineBudget(who, null);
    const keys = draws.identityKeys(body);
    // The draw and the one-per-person check side by side (both need only the draw's id); the draw answers first.
    const [draw, entered] = await Promise.all([
      draws.findDraw(drawId),
      draws.liveEntry(drawId, keys.mailboxKey),
    ]);
    if (!draw) throw notFound(draws.messages.notFound);
    await draws.assertEnterable(draw);
    // A drawn piece is a limited edition: never to a P.O. box (docs/product.md, "Fulfilment promises").
    const poBox = poBoxRefusal(body.shippingAddress, [{ releaseAt: null, soldByDraw: true }]);
    if (poBox) throw badRequest(poBox);

    const { product, sizes: choices } = await pieceOf(draw.productId);
    const sizes = draws.checkSizes(choices, body.size, body.secondSize);
    if (entered) {
      // Not confirmed yet: the first mail may never have come (lost, filtered, or the shop stopped before it
      // went out). The same link goes out again, at most once a minute, so the entrant is never stuck.
      const token = entered.status === 'pending' ? draws.linkTokenOf(entered) : null;
      if (token && mayMailAgain(entered.id)) {
        mailLink(entered, token, product, draw.closesAt);
        throw new HttpError(409, draws.messages.linkSentAgain);
      }
      throw new HttpError(409, draws.messages.alreadyEntered);
    }

    const shippingMethod = resolveShippingMethod(body.shippingCountry, body.shippingMethod, settings.homeCountry);
    const totals = computeTotals({
      lines: [{ unitPriceCents: draw.priceCents, quantity: 1 }],
      discount: null,
      shippingMethod,
      shippingRateCents: settings.rate(shippingMethod).cents,
      freeShippingThresholdCents: settings.freeShippingThresholdCents,
      taxRate: settings.taxRate,
    });

    const card = cardOf(body);
    const publicId = draws.newPublicId();
    const prepared = await prepareCard(draw.id, publicId, totals.total, card, '');

    let recorded;
    try {
      recorded = await draws.recordEntry({
        drawId: draw.id,
        publicId,
        ...keys,
        cardKey: prepared.cardKey,
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
        authorisationId: prepared.authorisationId,
      });
    } catch (err) {
      await release(prepared.authorisationId, null);
      throw err;
    }

    mailLink(recorded.entry, recorded.token, product, draw.closesAt);
    return { publicId, status: 'pending', message: ENTER_DRAW_MESSAGES.entered };
  }

  /**
   * The mailed link: the card is authorised now, once the mailbox is proven (docs/draw.md). A decline of any
   * kind is 402 with one message, counted against the address, the session and the card; past the budget,
   * 429 before the bank is asked. 3-D Secure: the entry stays pending and the answer carries `cardAction`.
   */
  async function confirmSteps(token: string, who: DrawShopper, body: ConfirmDrawEntryBody): Promise<DrawEntryView> {
    let { entry, draw } = await draws.entryByToken(token);
    if (entry.status === 'confirmed') return draws.viewOf(entry, draw);
    if (entry.status !== 'pending' || !draws.windowOpen(draw)) throw new HttpError(409, draws.messages.notChangeable);

    const another = body?.card || body?.paymentMethodId ? cardOf(body) : null;
    if (another) {
      await assertDeclineBudget(who, null);
      const previous = entry.authorisationId;
      const prepared = await prepareCard(draw.id, entry.publicId, entry.amountCents, another, `-${newAttempt()}`);
      const replaced = await draws.replaceCard(entry.id, prepared);
      if (!replaced) {
        await release(prepared.authorisationId, null);
        throw new HttpError(409, draws.messages.notChangeable);
      }
      entry = replaced;
      await release(previous, null);
    } else if (entry.authorisationState === 'failed') {
      // The bank said no already: asked again it would say the same, and count as another try.
      throw new HttpError(402, ENTER_DRAW_MESSAGES.cardNotAuthorised);
    }

    await assertDeclineBudget(who, entry.cardKey);
    const auth = await gateway.confirmAuthorisation(entry.authorisationId);
    if (auth.ok === 'requires_action') {
      const view = await draws.viewOf(entry, draw);
      return {
        ...view,
        cardAction: {
          clientSecret: auth.clientSecret,
          authorisationId: auth.authorisationId,
          message: ENTER_DRAW_MESSAGES.requiresAction,
        },
      };
    }
    if (auth.ok === false) {
      await draws.markCardFailed(entry.id, entry.authorisationId);
      await deps.declines.spend({ ...who, cardKey: entry.cardKey });
      // The reason stays in the log's code only (no personal data): the shopper gets one message for all.
      log.info({ code: auth.code, entry: entry.publicId }, 'draw: a card was not authorised at confirmation');
      throw new HttpError(402, ENTER_DRAW_MESSAGES.cardNotAuthorised);
    }
    const confirmed = await draws.confirmHeld(entry, draw, {
      authorisationId: auth.authorisationId,
      cardKey: entry.cardKey ?? draws.cardKey(auth.cardFingerprint),
    });
    if (!confirmed) {
      // Withdrawn, lapsed or given another card meanwhile: this hold serves nothing.
      await release(auth.authorisationId, null);
      ({ entry, draw } = await draws.entryByToken(token));
      if (entry.status === 'confirmed') return draws.viewOf(entry, draw);
      throw new HttpError(409, draws.messages.notChangeable);
    }
    return confirmed;
  }

  return {
    /** Entering (enterSteps): the card is only prepared; it is authorised at confirmation. */
    enter: (drawId: string, body: EnterDrawBody, who: DrawShopper): Promise<EnterDrawResult> =>
      enterSteps(drawId, body, who),

    async view(token: string): Promise<DrawEntryView> {
      const { entry, draw } = await draws.entryByToken(token);
      return draws.viewOf(entry, draw);
    },

    confirm: (token: string, who: DrawShopper, body?: ConfirmDrawEntryBody): Promise<DrawEntryView> =>
      confirmSteps(token, who, body),

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
      if (entry.authorisationState === 'authorised' || entry.authorisationState === 'prepared') {
        await release(entry.authorisationId, entry.id);
      }
      const { entry: fresh } = await draws.entryByToken(token);
      return draws.viewOf(fresh, draw);
    },
  };
}

/** A short random suffix: another card for the same entry is another intent (its own idempotency key). */
const newAttempt = (): string => randomBytes(6).toString('hex');

export type EnterDrawFlow = ReturnType<typeof createEnterDrawFlow>;
