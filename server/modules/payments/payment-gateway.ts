/** What the shop needs from a card payment provider (Stripe, or the built-in offline test gateway). */

export type IntentStatus =
  | 'requires_payment_method'
  | 'requires_confirmation'
  | 'requires_action'
  | 'processing'
  | 'requires_capture'
  | 'canceled'
  | 'succeeded';

export interface GatewayIntent {
  id: string;
  clientSecret: string | null;
  status: IntentStatus;
  /** Cents. */
  amount: number;
  metadata: Record<string, string>;
  /**
   * Identifies the card that paid (the same card gives the same value, never the number itself); set once
   * the intent succeeded with a card, else null. Per-shopper limits count by it (docs/product.md §9).
   */
  cardFingerprint?: string | null;
}

export interface CreateIntentInput {
  amountCents: number;
  metadata: Record<string, string>;
  /** The same key returns the same intent (a retried request never charges twice). */
  idempotencyKey: string;
}

/** A verified provider event; `intentId` is set for payment-intent events and for a charge's or dispute's payment. */
export interface GatewayEvent {
  id: string;
  type: string;
  intentId: string | null;
  /** A dispute event's dispute (charge.dispute.*): the provider's id, amount in cents, reason and status. */
  dispute?: { id: string; amount: number; reason: string; status: string };
}

/** A refund of part or all of a payment (after the sale, ADR 021). */
export interface RefundInput {
  intentId: string;
  amountCents: number;
  /** Derived from the shop's refund record: a retry or reconciliation never refunds twice. */
  idempotencyKey: string;
  /** Kept on the provider's refund (`refundId`: the shop's record), so its events and lists name the record. */
  metadata: Record<string, string>;
}

/** A refund as the provider keeps it. */
export interface GatewayRefund {
  id: string;
  /** Cents. */
  amount: number;
  status: 'succeeded' | 'pending' | 'requires_action' | 'failed' | 'canceled';
  metadata: Record<string, string>;
}

/** The provider refused a refund for good (more than is left on the payment, a payment it cannot refund). */
export class RefundRefusedError extends Error {}

export class WebhookSignatureError extends Error {}

/**
 * The card a draw entry authorises (docs/draw.md): Stripe's PaymentMethod id from Stripe.js, or, with the
 * offline gateway, one of Stripe's test cards typed in (never a real number: the offline gateway refuses those).
 */
export type AuthorisationCard =
  | { kind: 'stripe'; paymentMethodId: string }
  | { kind: 'offline'; cardNumber: string; expiry: string; cvc: string };

export interface AuthoriseInput {
  amountCents: number;
  metadata: Record<string, string>;
  /** The same key returns the same authorisation (a retried entry never holds twice). */
  idempotencyKey: string;
  card: AuthorisationCard;
}

/**
 * An authorisation holds the amount on the card without charging it (Stripe: capture_method=manual).
 * `requires_action`: the card's bank asks the shopper to confirm (3-D Secure); nothing is held until they do,
 * in the browser with `clientSecret`, after which `retrieveAuthorisation` reads the outcome.
 */
export type AuthoriseResult =
  | { ok: true; authorisationId: string; amount: number; cardFingerprint: string | null }
  | { ok: 'requires_action'; authorisationId: string; clientSecret: string }
  | { ok: false; code: string; message: string };

/**
 * A draw entry's card kept for its confirmation (docs/draw.md): the intent is made with the card, but nothing
 * is asked of the bank and nothing is held until `confirmAuthorisation`. The fingerprint identifies the card
 * (never its number) when the provider knows it without asking the bank.
 */
export type PrepareAuthorisationResult =
  | { ok: true; authorisationId: string; cardFingerprint: string | null }
  | { ok: false; code: string; message: string };

/**
 * Where an authorisation stands: `authorised` (held, can be captured), `requires_action` (the shopper has not
 * confirmed with their bank yet), `failed` (the bank's check failed or the card was declined: nothing held),
 * `voided` (released), `captured` (charged).
 */
export type AuthorisationState = 'authorised' | 'requires_action' | 'failed' | 'voided' | 'captured';

/**
 * A manual-capture intent's status as an authorisation (both gateways): `requires_capture` is held; a
 * failed 3-D Secure check sends the intent back to `requires_payment_method` (nothing held).
 */
export function authorisationStateOf(status: IntentStatus): AuthorisationState {
  switch (status) {
    case 'requires_capture':
      return 'authorised';
    case 'requires_action':
    case 'requires_confirmation':
    case 'processing':
      return 'requires_action';
    case 'succeeded':
      return 'captured';
    case 'canceled':
      return 'voided';
    default:
      return 'failed';
  }
}

export interface AuthorisationView {
  id: string;
  state: AuthorisationState;
  /** Cents. */
  amount: number;
  /** As given to `authorise`. */
  metadata: Record<string, string>;
  /** The card's fingerprint, once it is known (authorised). */
  cardFingerprint: string | null;
}

/**
 * `captured`: charged now. `already_captured`: an earlier capture charged it (never twice). `failed`: the
 * card was declined at capture; nothing was charged. Throws only when the provider could not be asked.
 */
export type CaptureResult =
  | { kind: 'captured'; amount: number }
  | { kind: 'already_captured'; amount: number }
  | { kind: 'failed'; code: string; message: string };

/** `voided`: released now; `already_voided`: released before; `captured`: charged already, so not released. */
export type VoidResult = 'voided' | 'already_voided' | 'captured';

export interface PaymentGateway {
  readonly provider: 'offline' | 'stripe';
  createIntent(input: CreateIntentInput): Promise<GatewayIntent>;
  /** null when the provider does not know the id. */
  retrieveIntent(id: string): Promise<GatewayIntent | null>;
  /** Best effort: an intent that can no longer be paid (its checkout was replaced). */
  cancelIntent(id: string): Promise<void>;
  /** Refunds the whole amount; idempotent per intent. */
  refund(id: string): Promise<void>;
  /** Refunds part or all of a paid intent; idempotent per key. RefundRefusedError when the provider says no for good. */
  refundPayment(input: RefundInput): Promise<GatewayRefund>;
  /** The refunds of a paid intent as the provider keeps them (reconciliation; refunds made in its dashboard). */
  listRefunds(intentId: string): Promise<GatewayRefund[]>;
  /** Of these intent ids, the ones that have succeeded (reconciliation). */
  listSucceeded(ids: readonly string[]): Promise<string[]>;
  /** Verifies and parses a provider webhook; throws WebhookSignatureError when it is not genuine. */
  parseWebhook(rawBody: Buffer, signature: string | undefined): GatewayEvent;
  /** Holds the amount on the card (manual capture); a decline is a result, not an error. */
  authorise(input: AuthoriseInput): Promise<AuthoriseResult>;
  /** Keeps the card on an intent for a later `confirmAuthorisation`; the bank is not asked, nothing is held. */
  prepareAuthorisation(input: AuthoriseInput): Promise<PrepareAuthorisationResult>;
  /**
   * Asks the bank to hold a prepared authorisation (as `authorise` does at once). Idempotent: an intent held
   * already answers ok, one waiting for 3-D Secure answers requires_action, a failed or released one a decline.
   */
  confirmAuthorisation(authorisationId: string): Promise<AuthoriseResult>;
  /** Charges an authorisation, at most once whatever the number of calls. */
  capture(authorisationId: string): Promise<CaptureResult>;
  /** Releases an authorisation that was not captured (one still waiting for the shopper's bank too). */
  voidAuthorisation(authorisationId: string): Promise<VoidResult>;
  /** An authorisation as it stands now (after the shopper's 3-D Secure step); null when the provider does not know it. */
  retrieveAuthorisation(authorisationId: string): Promise<AuthorisationView | null>;
  /** Called after the gateway itself learns that an intent succeeded (the offline gateway's confirm). */
  onSucceeded(listener: (intentId: string, intent: GatewayIntent) => Promise<unknown>): void;
}
