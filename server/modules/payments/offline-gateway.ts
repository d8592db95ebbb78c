import crypto from 'node:crypto';
import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import { HttpError, notFound } from '../../lib/http-error';
import { CARD_MESSAGES, cardFingerprint, evaluateAuthorisationCard, evaluateTestCard } from './offline-card';
import { offlineIntents, offlineRefunds } from './payments.tables';
import { authorisationStateOf, RefundRefusedError, type GatewayIntent, type IntentStatus, type PaymentGateway } from './payment-gateway';

type OfflineIntentRow = typeof offlineIntents.$inferSelect;

/** Where the paying card's fingerprint is kept on the intent row (Stripe keeps it on the charge). */
const FINGERPRINT_KEY = 'card_fingerprint';
/** Marks an authorisation whose test card is declined at capture (offline-card.ts, FAILS_AT_CAPTURE). */
const FAILS_AT_CAPTURE_KEY = 'fails_at_capture';
/**
 * What the bank will answer a prepared authorisation (a draw entry's card, kept until its mailbox is
 * confirmed): `hold`, `action` (3-D Secure) or `decline:<code>`. The test card decides it; it is read only
 * at `confirmAuthorisation`, so an entry learns nothing of its card before the confirmation.
 */
const PREPARED_KEY = 'prepared_outcome';

/**
 * A failed 3-D Secure step. Stripe moves such an intent back to `requires_payment_method`; here it is
 * `canceled` with this error instead, so the checkout's confirm (which pays `requires_payment_method`
 * intents by their secret) can never turn an entry's failed hold into a charge.
 */
const AUTHENTICATION_FAILURE = 'payment_intent_authentication_failure';
const failedAuthentication = (row: OfflineIntentRow) => row.status === 'canceled' && row.lastError === AUTHENTICATION_FAILURE;

function toIntent(row: OfflineIntentRow): GatewayIntent {
  const {
    [FINGERPRINT_KEY]: fingerprint,
    [FAILS_AT_CAPTURE_KEY]: _failsAtCapture,
    [PREPARED_KEY]: _prepared,
    ...metadata
  } = row.metadata;
  return {
    id: row.id,
    clientSecret: row.clientSecret,
    status: row.status as IntentStatus,
    amount: row.amount,
    metadata,
    cardFingerprint: fingerprint ?? null,
  };
}

export interface OfflineConfirmInput {
  clientSecret: string;
  cardNumber: string;
  expiry: string;
  cvc: string;
}

export interface OfflineAuthenticateInput {
  authorisationId: string;
  clientSecret: string;
  /** What the shopper chose on the stand-in for their bank's 3-D Secure page. */
  outcome: 'complete' | 'fail';
}

export interface OfflineGateway extends PaymentGateway {
  readonly provider: 'offline';
  /**
   * The offline twin of a bank's 3-D Secure page (docs/draw.md): `complete` authorises the waiting hold,
   * `fail` leaves nothing held (402 with Stripe's message). The client secret is required.
   */
  authenticate(input: OfflineAuthenticateInput): Promise<{ id: string; status: 'requires_capture' }>;
  /** The `POST /api/payments/offline/confirm` of docs/product.md §11: 200 {id, status, amount} or a 402 card error. */
  confirm(
    input: OfflineConfirmInput,
    now?: Date,
  ): Promise<{ id: string; status: 'succeeded'; amount: number }>;
}

/**
 * The default gateway without Stripe keys: intents live in offline_payment_intents and are paid with
 * Stripe's test cards. A successful confirm notifies the shop itself (its "webhook"), so the order is
 * made even when the browser never comes back.
 */
export function createOfflineGateway(db: Db, log: FastifyBaseLogger): OfflineGateway {
  const listeners: Array<(intentId: string, intent: GatewayIntent) => Promise<unknown>> = [];
  // A draw entry's hold (authorise), at up to hundreds a second while entries are open: built once, prepared
  // on each connection (bench:draw).
  const insertAuthorisation = db
    .insert(offlineIntents)
    .values({
      id: sql.placeholder('id'),
      clientSecret: sql.placeholder('clientSecret'),
      amount: sql.placeholder('amount'),
      status: sql.placeholder('status'),
      metadata: sql.placeholder('metadata'),
    })
    .onConflictDoNothing({ target: offlineIntents.id })
    .returning()
    .prepare('offline_intents_authorise');

  async function emitSucceeded(intent: GatewayIntent): Promise<void> {
    for (const listener of listeners) {
      try {
        await listener(intent.id, intent);
      } catch (err) {
        // The payment stands; the reconciliation job retries fulfilment.
        log.error({ err, intentId: intent.id }, 'offline payment: success handler failed');
      }
    }
  }

  async function findBySecret(clientSecret: string): Promise<OfflineIntentRow | null> {
    const [row] = await db
      .select()
      .from(offlineIntents)
      .where(eq(offlineIntents.clientSecret, clientSecret))
      .limit(1);
    return row ?? null;
  }

  const noLongerPayable = () =>
    new HttpError(400, 'This payment is no longer valid. Please reload the page and try again.');

  return {
    provider: 'offline',

    async createIntent({ amountCents, metadata, idempotencyKey }) {
      // Idempotency: the key becomes part of the id, so a retried create returns the same intent.
      const id = `pi_offline_${crypto.createHash('sha256').update(idempotencyKey).digest('hex').slice(0, 24)}`;
      const clientSecret = `${id}_secret_${crypto.randomBytes(18).toString('base64url')}`;
      const [row] = await db
        .insert(offlineIntents)
        .values({ id, clientSecret, amount: amountCents, metadata })
        .onConflictDoUpdate({ target: offlineIntents.id, set: { updatedAt: new Date() } })
        .returning();
      return toIntent(row!);
    },

    async retrieveIntent(id) {
      const [row] = await db.select().from(offlineIntents).where(eq(offlineIntents.id, id)).limit(1);
      return row ? toIntent(row) : null;
    },

    async cancelIntent(id) {
      await db
        .update(offlineIntents)
        .set({ status: 'canceled', updatedAt: new Date() })
        .where(and(eq(offlineIntents.id, id), ne(offlineIntents.status, 'succeeded')));
    },

    async refund(id) {
      await db
        .update(offlineIntents)
        .set({ refundedAmount: sql`${offlineIntents.amount}`, updatedAt: new Date() })
        .where(and(eq(offlineIntents.id, id), eq(offlineIntents.status, 'succeeded')));
    },

    // Partial refunds (after the sale, ADR 021): one row per idempotency key, never beyond what was paid.
    async refundPayment({ intentId, amountCents, idempotencyKey, metadata }) {
      const id = `re_offline_${crypto.createHash('sha256').update(idempotencyKey).digest('hex').slice(0, 24)}`;
      return db.transaction(async (tx) => {
        const [intent] = await tx.select().from(offlineIntents).where(eq(offlineIntents.id, intentId)).for('update');
        const [again] = await tx.select().from(offlineRefunds).where(eq(offlineRefunds.idempotencyKey, idempotencyKey));
        if (again) return { id: again.id, amount: again.amount, status: 'succeeded' as const, metadata: again.metadata };
        if (!intent || intent.status !== 'succeeded') throw new RefundRefusedError('This payment was not made, so it cannot be refunded.');
        if (intent.refundedAmount + amountCents > intent.amount) throw new RefundRefusedError('The refund is more than is left on this payment.');
        await tx.insert(offlineRefunds).values({ id, intentId, idempotencyKey, amount: amountCents, metadata });
        await tx
          .update(offlineIntents)
          .set({ refundedAmount: sql`${offlineIntents.refundedAmount} + ${amountCents}`, updatedAt: new Date() })
          .where(eq(offlineIntents.id, intentId));
        return { id, amount: amountCents, status: 'succeeded' as const, metadata };
      });
    },

    async listRefunds(intentId) {
      const rows = await db.select().from(offlineRefunds).where(eq(offlineRefunds.intentId, intentId));
      return rows.map((r) => ({ id: r.id, amount: r.amount, status: 'succeeded' as const, metadata: r.metadata }));
    },

    async listSucceeded(ids) {
      if (ids.length === 0) return [];
      const rows = await db
        .select({ id: offlineIntents.id })
        .from(offlineIntents)
        .where(and(inArray(offlineIntents.id, [...ids]), eq(offlineIntents.status, 'succeeded')));
      return rows.map((r) => r.id);
    },

    // Manual capture, as Stripe's capture_method=manual: an authorisation is an intent in `requires_capture`
    // (the amount held), capture moves it to `succeeded` once (one conditional UPDATE), void to `canceled`.
    // A 3-D Secure test card starts in `requires_action` (nothing held) until `authenticate` plays its bank.
    async authorise({ amountCents, metadata, idempotencyKey, card }) {
      if (card.kind !== 'offline') {
        return { ok: false, code: 'invalid_request', message: 'This shop takes test cards only (offline payments).' };
      }
      const outcome = evaluateAuthorisationCard(card, new Date());
      if (!outcome.ok) return { ok: false, code: outcome.code, message: outcome.message };
      const id = `pi_offline_auth_${crypto.createHash('sha256').update(idempotencyKey).digest('hex').slice(0, 24)}`;
      const fingerprint = cardFingerprint(card.cardNumber, card.expiry);
      const stored = { ...metadata, [FINGERPRINT_KEY]: fingerprint, ...(outcome.failsAtCapture ? { [FAILS_AT_CAPTURE_KEY]: 'true' } : {}) };
      // The same key is the same authorisation: a retried entry holds once (then the stored one is read).
      const [made] = await insertAuthorisation.execute({
        id,
        clientSecret: `${id}_secret_${crypto.randomBytes(18).toString('base64url')}`,
        amount: amountCents,
        status: outcome.requiresAction ? 'requires_action' : 'requires_capture',
        metadata: stored,
      });
      const row = made ?? (await db.select().from(offlineIntents).where(eq(offlineIntents.id, id)).limit(1))[0];
      if (row && failedAuthentication(row)) {
        return { ok: false, code: AUTHENTICATION_FAILURE, message: CARD_MESSAGES.authenticationFailed };
      }
      if (!row || row.status === 'canceled') {
        return { ok: false, code: 'authorisation_voided', message: CARD_MESSAGES.declined };
      }
      if (row.status === 'requires_action') return { ok: 'requires_action', authorisationId: row.id, clientSecret: row.clientSecret };
      return { ok: true, authorisationId: row.id, amount: row.amount, cardFingerprint: fingerprint };
    },

    // A draw entry's card until its confirmation: the intent waits in `requires_confirmation` (nothing held,
    // as a Stripe intent created without confirm) with the test card's answer kept for confirmAuthorisation.
    async prepareAuthorisation({ amountCents, metadata, idempotencyKey, card }) {
      if (card.kind !== 'offline') {
        return { ok: false, code: 'invalid_request', message: 'This shop takes test cards only (offline payments).' };
      }
      const outcome = evaluateAuthorisationCard(card, new Date());
      const answer = !outcome.ok ? `decline:${outcome.code}` : outcome.requiresAction ? 'action' : 'hold';
      const id = `pi_offline_auth_${crypto.createHash('sha256').update(idempotencyKey).digest('hex').slice(0, 24)}`;
      const fingerprint = cardFingerprint(card.cardNumber, card.expiry);
      const stored = {
        ...metadata,
        [FINGERPRINT_KEY]: fingerprint,
        [PREPARED_KEY]: answer,
        ...(outcome.ok && outcome.failsAtCapture ? { [FAILS_AT_CAPTURE_KEY]: 'true' } : {}),
      };
      await insertAuthorisation.execute({
        id,
        clientSecret: `${id}_secret_${crypto.randomBytes(18).toString('base64url')}`,
        amount: amountCents,
        status: 'requires_confirmation',
        metadata: stored,
      });
      return { ok: true, authorisationId: id, cardFingerprint: fingerprint };
    },

    async confirmAuthorisation(authorisationId) {
      const read = async () =>
        (await db.select().from(offlineIntents).where(eq(offlineIntents.id, authorisationId)).limit(1))[0];
      let row = await read();
      if (row?.status === 'requires_confirmation') {
        const answer = row.metadata[PREPARED_KEY] ?? 'decline:card_declined';
        const next =
          answer === 'hold'
            ? { status: 'requires_capture', lastError: null }
            : answer === 'action'
              ? { status: 'requires_action', lastError: null }
              : { status: 'canceled', lastError: answer.slice('decline:'.length) };
        // One conditional move: two confirmations at once ask the "bank" once.
        await db
          .update(offlineIntents)
          .set({ ...next, updatedAt: new Date() })
          .where(and(eq(offlineIntents.id, authorisationId), eq(offlineIntents.status, 'requires_confirmation')));
        row = await read();
      }
      if (!row) return { ok: false, code: 'resource_missing', message: CARD_MESSAGES.declined };
      if (row.status === 'requires_capture' || row.status === 'succeeded') {
        return { ok: true, authorisationId: row.id, amount: row.amount, cardFingerprint: row.metadata[FINGERPRINT_KEY] ?? null };
      }
      if (row.status === 'requires_action') return { ok: 'requires_action', authorisationId: row.id, clientSecret: row.clientSecret };
      if (failedAuthentication(row)) return { ok: false, code: AUTHENTICATION_FAILURE, message: CARD_MESSAGES.authenticationFailed };
      return { ok: false, code: row.lastError ?? 'authorisation_voided', message: CARD_MESSAGES.declined };
    },

    async retrieveAuthorisation(authorisationId) {
      const [row] = await db.select().from(offlineIntents).where(eq(offlineIntents.id, authorisationId)).limit(1);
      if (!row) return null;
      const intent = toIntent(row);
      return {
        id: intent.id,
        state: failedAuthentication(row) ? 'failed' : authorisationStateOf(intent.status),
        amount: intent.amount,
        metadata: intent.metadata,
        // As at Stripe, the card is known once the hold is made.
        cardFingerprint: intent.status === 'requires_capture' || intent.status === 'succeeded' ? (intent.cardFingerprint ?? null) : null,
      };
    },

    async authenticate({ authorisationId, clientSecret, outcome }) {
      const passed = outcome === 'complete';
      const [moved] = await db
        .update(offlineIntents)
        .set(
          passed
            ? { status: 'requires_capture', lastError: null, updatedAt: new Date() }
            : { status: 'canceled', lastError: AUTHENTICATION_FAILURE, updatedAt: new Date() },
        )
        .where(
          and(
            eq(offlineIntents.id, authorisationId),
            eq(offlineIntents.clientSecret, clientSecret),
            eq(offlineIntents.status, 'requires_action'),
          ),
        )
        .returning();
      // Only the holder of the client secret may answer for the bank; a wrong secret is an unknown payment.
      const row = moved ?? (await findBySecret(clientSecret));
      if (!row || row.id !== authorisationId) throw notFound('Payment not found');
      // Answered before: the first answer stands (a repeated click changes nothing).
      if (row.status === 'requires_capture') return { id: row.id, status: 'requires_capture' };
      if (failedAuthentication(row)) throw new HttpError(402, CARD_MESSAGES.authenticationFailed);
      throw noLongerPayable();
    },

    async capture(authorisationId) {
      const [captured] = await db
        .update(offlineIntents)
        .set({ status: 'succeeded', updatedAt: new Date() })
        .where(
          and(
            eq(offlineIntents.id, authorisationId),
            eq(offlineIntents.status, 'requires_capture'),
            sql`not (${offlineIntents.metadata} ? ${FAILS_AT_CAPTURE_KEY})`,
          ),
        )
        .returning();
      if (captured) return { kind: 'captured', amount: captured.amount };
      const [row] = await db.select().from(offlineIntents).where(eq(offlineIntents.id, authorisationId)).limit(1);
      if (!row) return { kind: 'failed', code: 'resource_missing', message: 'Payment not found' };
      if (row.status === 'succeeded') return { kind: 'already_captured', amount: row.amount };
      if (row.status === 'requires_capture') {
        // The card that authorised is declined now; the hold stays until it is voided, as at Stripe.
        await db
          .update(offlineIntents)
          .set({ lastError: 'card_declined', updatedAt: new Date() })
          .where(eq(offlineIntents.id, authorisationId));
        return { kind: 'failed', code: 'card_declined', message: CARD_MESSAGES.declined };
      }
      return { kind: 'failed', code: 'authorisation_voided', message: 'This authorisation was released and can no longer be captured.' };
    },

    async voidAuthorisation(authorisationId) {
      const [voided] = await db
        .update(offlineIntents)
        .set({ status: 'canceled', updatedAt: new Date() })
        .where(
          and(
            eq(offlineIntents.id, authorisationId),
            inArray(offlineIntents.status, ['requires_capture', 'requires_action', 'requires_confirmation']),
          ),
        )
        .returning({ id: offlineIntents.id });
      if (voided) return 'voided';
      const [row] = await db
        .select({ status: offlineIntents.status })
        .from(offlineIntents)
        .where(eq(offlineIntents.id, authorisationId))
        .limit(1);
      return row?.status === 'succeeded' ? 'captured' : 'already_voided';
    },

    parseWebhook() {
      throw notFound('Webhooks are only used with Stripe');
    },

    onSucceeded(listener) {
      listeners.push(listener);
    },

    async confirm(input, now = new Date()) {
      const outcome = evaluateTestCard(input, now);
      if (outcome.ok) {
        // The hot path of a drop: one conditional update pays the intent.
        const [paid] = await db
          .update(offlineIntents)
          .set({
            status: 'succeeded',
            lastError: null,
            updatedAt: new Date(),
            metadata: sql`${offlineIntents.metadata} || ${JSON.stringify({ [FINGERPRINT_KEY]: cardFingerprint(input.cardNumber, input.expiry) })}::jsonb`,
          })
          .where(
            and(
              eq(offlineIntents.clientSecret, input.clientSecret),
              eq(offlineIntents.status, 'requires_payment_method'),
            ),
          )
          .returning();
        if (paid) {
          await emitSucceeded(toIntent(paid));
          return { id: paid.id, status: 'succeeded', amount: paid.amount };
        }
      }
      const intent = await findBySecret(input.clientSecret);
      if (!intent) throw notFound('Payment not found');
      if (intent.status === 'canceled') throw noLongerPayable();
      if (intent.status === 'succeeded') {
        // A repeated confirm is harmless: fulfilment is idempotent and may have been interrupted before.
        await emitSucceeded(toIntent(intent));
        return { id: intent.id, status: 'succeeded', amount: intent.amount };
      }
      if (outcome.ok) throw noLongerPayable();
      await db
        .update(offlineIntents)
        .set({ lastError: outcome.code, updatedAt: new Date() })
        .where(eq(offlineIntents.id, intent.id));
      throw new HttpError(402, outcome.message);
    },
  };
}
