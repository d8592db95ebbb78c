import type { DrawEntryView } from '../../../common/contracts/draws';
import type { CustomerInfoBody } from '../../../common/contracts/checkout';
import { drawHasRun, drawTakesEntries, isEntryChangeable } from '../../../common/domain/draw-lifecycle';
import { deliveryAddressKey, mailboxKey } from '../../../common/domain/identity';
import { formatMoney } from '../../../common/domain/money';
import type { DbOrTx } from '../../db/client';
import { conflict, notFound } from '../../lib/http-error';
import { DRAW_MESSAGES, isUniqueViolation, type DrawContext } from './draw-context';
import { hashToken, identityKey, linkTokenOf, newPublicId } from './draw-crypto';
import {
  authorisationInUse,
  changeLiveSizes,
  findEntryByTokenHash,
  insertEntry,
  liveEntryOf,
  moveDraw,
  moveEntries,
  setAuthorisationState,
  updatePending,
  type DrawEntryRow,
  type DrawRow,
  type NewDrawEntry,
} from './draws.repository';

export type LiveEntry = Pick<DrawEntryRow, 'id' | 'status' | 'publicId' | 'manageTokenHash' | 'email' | 'firstName' | 'amountCents'>;

/** What an entry is recorded with; its link token's hash, status and card state are the module's to set. */
export type EntryValues = Omit<
  Pick<
    Required<NewDrawEntry>,
    | 'drawId' | 'publicId' | 'manageTokenHash' | 'status' | 'mailboxKey' | 'deliveryKey' | 'cardKey' | 'email'
    | 'firstName' | 'lastName' | 'phone' | 'shippingAddress' | 'shippingCity' | 'shippingState' | 'shippingZip'
    | 'shippingCountry' | 'shippingMethod' | 'size' | 'secondSize' | 'amountCents' | 'subtotalCents'
    | 'shippingCents' | 'taxCents' | 'authorisationId' | 'authorisationState'
  >,
  'manageTokenHash' | 'status' | 'authorisationState'
>;

/**
 * Entering a draw and the entrant's own link (server/flows/enter-draw.ts holds the card): the identity keys
 * (ADR 013), the entry's row and its mailed link, confirm, change sizes, withdraw.
 */
export function createDrawEntries(ctx: DrawContext) {
  const { db, clock, secret } = ctx;

  async function viewOf(entry: DrawEntryRow, draw?: DrawRow): Promise<DrawEntryView> {
    const d = draw ?? (await ctx.requireDraw(entry.drawId));
    return {
      publicId: entry.publicId,
      drawId: d.id,
      productId: d.productId,
      productName: await ctx.productName(d.productId),
      drawStatus: d.status as DrawEntryView['drawStatus'],
      status: entry.status as DrawEntryView['status'],
      email: entry.email,
      size: entry.size,
      secondSize: entry.secondSize,
      amount: formatMoney(entry.amountCents),
      closesAt: d.closesAt.toISOString(),
      drawAt: d.drawAt.toISOString(),
      changeable: isEntryChangeable(entry.status) && ctx.windowOpen(d),
      rank: drawHasRun(d.status) ? entry.rank : null,
      allocatedSize: entry.status === 'won' ? entry.allocatedSize : null,
      orderNumber: entry.orderNumber,
      removedReason: entry.removedReason,
      cardFailed: entry.status === 'pending' && entry.authorisationState === 'failed',
    };
  }

  async function entryByToken(token: string): Promise<{ entry: DrawEntryRow; draw: DrawRow }> {
    const entry = await findEntryByTokenHash(db, hashToken(token));
    if (!entry) throw notFound(DRAW_MESSAGES.entryNotFound);
    return { entry, draw: await ctx.requireDraw(entry.drawId) };
  }

  return {
    viewOf,
    entryByToken,

    /** Refuses (409) unless the window is open by the one clock; moves a due draw to `open`. */
    async assertEnterable(d: DrawRow): Promise<void> {
      const now = clock.now();
      if (drawTakesEntries(d.status)) {
        if (now < d.opensAt.getTime()) throw conflict(DRAW_MESSAGES.notOpenYet);
        if (now < d.closesAt.getTime()) {
          if (d.status === 'scheduled') await moveDraw(db, d.id, 'open');
          return;
        }
      }
      throw conflict(DRAW_MESSAGES.closed);
    },

    /** Keyed hashes of the folded mailbox and delivery address (ADR 013): one per person, whatever the spelling. */
    identityKeys(c: Pick<CustomerInfoBody, 'email' | 'shippingAddress' | 'shippingZip' | 'shippingCountry'> & { shippingCity?: string }) {
      return {
        mailboxKey: identityKey(secret, 'mailbox', mailboxKey(c.email)),
        deliveryKey: identityKey(
          secret,
          'delivery',
          deliveryAddressKey({
            line: c.shippingAddress,
            postalCode: c.shippingZip,
            country: c.shippingCountry,
            city: c.shippingCity,
          }),
        ),
      };
    },

    cardKey(fingerprint: string | null): string | null {
      return fingerprint ? identityKey(secret, 'card', fingerprint) : null;
    },

    /** The live (pending or confirmed) entry of this folded mailbox in this draw, if any: what mailing its link again needs. */
    liveEntry: (drawId: string, mailbox: string): Promise<LiveEntry | null> => liveEntryOf(db, drawId, mailbox),

    /** The entry's link token when the shop can make it again (entries made before link tokens were keyed: null). */
    linkTokenOf(entry: Pick<DrawEntryRow, 'publicId' | 'manageTokenHash'>): string | null {
      const token = linkTokenOf(secret, entry.publicId);
      return hashToken(token) === entry.manageTokenHash ? token : null;
    },

    newPublicId,

    /** Whether an entry already holds this card authorisation (one authorisation is one entry, ever). */
    authorisationInUse: (authorisationId: string): Promise<boolean> => authorisationInUse(db, authorisationId),

    /**
     * Records an entry, pending until its e-mail link is used, with its card prepared (not yet sent to the
     * bank: docs/draw.md); returns it and its link token.
     */
    async recordEntry(values: EntryValues): Promise<{ entry: DrawEntryRow; token: string }> {
      const token = linkTokenOf(secret, values.publicId);
      try {
        const entry = await insertEntry(db, {
          ...values,
          manageTokenHash: hashToken(token),
          status: 'pending',
          authorisationState: 'prepared',
        });
        return { entry, token };
      } catch (err) {
        if (isUniqueViolation(err)) throw conflict(DRAW_MESSAGES.alreadyEntered);
        throw err;
      }
    },

    /**
     * The mailed link, once the card is held (the flow asked the bank): pending → confirmed while the window is
     * open. Null when the entry moved meanwhile (withdrawn, lapsed): the flow releases the card.
     */
    async confirmHeld(
      entry: DrawEntryRow,
      draw: DrawRow,
      held: { authorisationId: string; cardKey: string | null },
    ): Promise<DrawEntryView | null> {
      if (!ctx.windowOpen(draw)) return null;
      const moved = await updatePending(
        db,
        entry.id,
        {
          status: 'confirmed',
          confirmedAt: new Date(clock.now()),
          authorisationState: 'authorised',
          // The fingerprint the bank's answer names, when the entry did not know its card yet.
          ...(held.cardKey ? { cardKey: held.cardKey } : {}),
        },
        held.authorisationId,
      );
      return moved ? viewOf(moved, draw) : null;
    },

    /** The card was declined at confirmation: the entry stays pending, its card marked failed (try another). */
    async markCardFailed(entryId: string, authorisationId: string): Promise<void> {
      await updatePending(db, entryId, { authorisationState: 'failed' }, authorisationId);
    },

    /** Another card for a pending entry (its previous one failed or was never asked): prepared, like at entry. */
    replaceCard: (entryId: string, card: { authorisationId: string; cardKey: string | null }): Promise<DrawEntryRow | null> =>
      updatePending(db, entryId, {
        authorisationId: card.authorisationId,
        cardKey: card.cardKey,
        authorisationState: 'prepared',
      }),

    async changeSizes(token: string, sizes: { size: string | null; secondSize: string | null }): Promise<DrawEntryView> {
      const { entry, draw } = await entryByToken(token);
      if (!isEntryChangeable(entry.status) || !ctx.windowOpen(draw)) throw conflict(DRAW_MESSAGES.notChangeable);
      const row = await changeLiveSizes(db, entry.id, sizes);
      if (!row) throw conflict(DRAW_MESSAGES.notChangeable);
      return viewOf(row, draw);
    },

    /** Withdraws while the window is open; returns the entry (its authorisation is the flow's to release). */
    async withdraw(token: string): Promise<{ entry: DrawEntryRow; draw: DrawRow }> {
      const { entry, draw } = await entryByToken(token);
      if (entry.status === 'withdrawn') return { entry, draw };
      if (!isEntryChangeable(entry.status) || !ctx.windowOpen(draw)) throw conflict(DRAW_MESSAGES.notChangeable);
      const [moved] = await moveEntries(db, { ids: [entry.id] }, 'withdrawn', {
        withdrawnAt: new Date(clock.now()),
      });
      if (!moved) throw conflict(DRAW_MESSAGES.notChangeable);
      return { entry: moved, draw };
    },

    setAuthorisationState: (entryId: string, state: 'captured' | 'voided' | 'failed', tx: DbOrTx = db) =>
      setAuthorisationState(tx, entryId, state),
  };
}
