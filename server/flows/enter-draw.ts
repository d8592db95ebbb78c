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
} as const;

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
 *   2. readProduct    — catalog: the piece, its sizes (400 for a size it does not come in)
 *   3. onePerPerson   — draws: a live entry of the same folded mailbox is refused (409), before any card is touched
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
    mailer.send(message).catch((err: unknown) => log.error({ err }, 'draw: sending the confirmation mail failed'));
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
    const [product, runs] = await Promise.all([catalog.getProductFresh(productId), deps.sizeRuns([productId])]);
    if (!product) throw notFound(draws.messages.notFound);
    return { product, sizes: { sizes: product.sizes, sizeStock: runs.get(productId) ?? [] } };
  }

  return {
    async enter(drawId: string, body: EnterDrawBody): Promise<EnterDrawResult> {
      const draw = await draws.findDraw(drawId);
      if (!draw) throw notFound(draws.messages.notFound);
      await draws.assertEnterable(draw);

      const { product, sizes: choices } = await readProduct(draw.productId);
      const sizes = draws.checkSizes(choices, body.size, body.secondSize);

      const keys = draws.identityKeys(body);
      if (await draws.hasLiveEntry(draw.id, keys.mailboxKey)) throw new HttpError(409, draws.messages.alreadyEntered);

      const shippingMethod = resolveShippingMethod(body.shippingCountry, body.shippingMethod);
      const totals = computeTotals({
        lines: [{ unitPriceCents: draw.priceCents, quantity: 1 }],
        discount: null,
        shippingMethod,
        shippingRateCents: settings.rate(shippingMethod).cents,
        freeShippingThresholdCents: settings.freeShippingThresholdCents,
        taxRate: settings.taxRate,
      });

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
        amountCents: totals.total,
        // Nothing personal in the provider's metadata: the draw and the entry's public id.
        metadata: { drawId: draw.id, drawEntry: publicId },
        idempotencyKey: `draw-entry-${publicId}`,
        card,
      });
      if (!auth.ok) throw new HttpError(402, auth.message);

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
        await release(auth.authorisationId, null);
        throw err;
      }

      sendLater(
        renderEntryConfirmation({
          to: body.email,
          firstName: body.firstName,
          productName: product.name,
          amountCents: totals.total,
          closesAt: draw.closesAt,
          url: entryUrl(recorded.token),
          shopName: settings.shopName,
        }),
      );
      return { publicId, status: 'pending', message: ENTER_DRAW_MESSAGES.entered };
    },

    async view(token: string): Promise<DrawEntryView> {
      const { entry, draw } = await draws.entryByToken(token);
      return draws.viewOf(entry, draw);
    },

    confirm: (token: string) => draws.confirm(token),

    /** New sizes, checked against the piece's sizes as they are now. */
    async changeSizes(token: string, change: { size?: string | null; secondSize?: string | null }): Promise<DrawEntryView> {
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
