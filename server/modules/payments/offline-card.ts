import crypto from 'node:crypto';

// The offline gateway follows Stripe's test-mode cards and messages, so the same numbers work
// against the real Stripe sandbox: https://docs.stripe.com/testing

export type CardOutcome = { ok: true } | { ok: false; code: string; message: string };

export const CARD_MESSAGES = {
  invalidNumber: 'Your card number is invalid.',
  invalidExpiry: "Your card's expiration date is invalid.",
  expired: 'Your card has expired.',
  invalidCvc: "Your card's security code is invalid.",
  incorrectCvc: "Your card's security code is incorrect.",
  declined: 'Your card was declined.',
  insufficientFunds: 'Your card has insufficient funds.',
  processingError: 'An error occurred while processing your card. Try again in a little bit.',
  authenticationFailed:
    'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
} as const;

const SUCCEEDING = new Set([
  '4242424242424242',
  '4000056655665556',
  '5555555555554444',
  '2223003122003222',
  '5200828282828210',
  '5105105105105100',
  '378282246310005',
  '371449635398431',
  '6011111111111117',
  '3056930009020004',
  '36227206271667',
  '3566002020360505',
  '6200000000000005',
]);

const FAILING: Record<string, { code: string; message: string }> = {
  '4000000000000002': { code: 'card_declined', message: CARD_MESSAGES.declined },
  '4000000000009995': { code: 'insufficient_funds', message: CARD_MESSAGES.insufficientFunds },
  '4000000000009987': { code: 'lost_card', message: CARD_MESSAGES.declined },
  '4000000000009979': { code: 'stolen_card', message: CARD_MESSAGES.declined },
  '4000000000000069': { code: 'expired_card', message: CARD_MESSAGES.expired },
  '4000000000000127': { code: 'incorrect_cvc', message: CARD_MESSAGES.incorrectCvc },
  '4000000000000119': { code: 'processing_error', message: CARD_MESSAGES.processingError },
  // Stripe's "attach succeeds, charge fails": charged at once (the checkout) it is declined.
  '4000000000000341': { code: 'card_declined', message: CARD_MESSAGES.declined },
};

/**
 * Cards whose authorisation (a draw entry, manual capture) succeeds but whose capture is declined later:
 * 4000 0000 0000 0341, Stripe's "attach succeeds, charge fails" card, stands for a card cancelled or
 * emptied between the entry and the draw.
 */
const FAILS_AT_CAPTURE = new Set(['4000000000000341']);

/**
 * Cards whose bank asks for 3-D Secure when they are authorised (a draw entry): Stripe's "always authenticate"
 * 4000 0027 6000 3184 and "authenticate unless set up" 4000 0025 0000 3155. The authorisation waits for the
 * shopper's step (the offline gateway's authenticate route plays the bank); nothing is held until then.
 */
const REQUIRES_AUTHENTICATION = new Set(['4000002760003184', '4000002500003155']);

/**
 * The offline twin of Stripe's card fingerprint: a hash of the digits and the expiry, never the number.
 * The expiry is part of it because the test numbers are public and shared by every tester (the demo,
 * the benches): with the number alone all of them would be one shopper. The same card (number and
 * expiry) from any session or e-mail is one card.
 */
export function cardFingerprint(cardNumber: string, expiry: string): string {
  const digits = cardNumber.replace(/[\s-]/g, '');
  const e = parseExpiry(expiry);
  const when = e ? `${e.month}/${e.year}` : expiry.trim();
  return `offline_${crypto.createHash('sha256').update(`fifty offline card|${digits}|${when}`).digest('hex').slice(0, 32)}`;
}

export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** "MM/YY" (or MM/YYYY) → {month, year}; null when malformed. */
export function parseExpiry(expiry: string): { month: number; year: number } | null {
  const m = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(expiry);
  if (!m) return null;
  const month = Number(m[1]);
  const year = m[2]!.length === 2 ? 2000 + Number(m[2]) : Number(m[2]);
  if (month < 1 || month > 12) return null;
  return { month, year };
}

export function evaluateTestCard(
  input: { cardNumber: string; expiry: string; cvc: string },
  now: Date,
): CardOutcome {
  const digits = input.cardNumber.replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(digits) || !passesLuhn(digits)) {
    return { ok: false, code: 'invalid_number', message: CARD_MESSAGES.invalidNumber };
  }
  const expiry = parseExpiry(input.expiry);
  if (!expiry) return { ok: false, code: 'invalid_expiry', message: CARD_MESSAGES.invalidExpiry };
  // A card is good through the last day of its expiry month.
  const nowMonths = now.getUTCFullYear() * 12 + now.getUTCMonth();
  if (expiry.year * 12 + (expiry.month - 1) < nowMonths) {
    return { ok: false, code: 'expired_card', message: CARD_MESSAGES.expired };
  }
  if (!/^\d{3,4}$/.test(input.cvc.trim()))
    return { ok: false, code: 'invalid_cvc', message: CARD_MESSAGES.invalidCvc };
  const failing = FAILING[digits];
  if (failing) return { ok: false, ...failing };
  if (SUCCEEDING.has(digits)) return { ok: true };
  // Test mode with a real card number: Stripe declines it too.
  return { ok: false, code: 'card_declined', message: CARD_MESSAGES.declined };
}

/**
 * The outcome of authorising (holding, not charging) a test card: the same checks and declines as a charge
 * (4000 0000 0000 0002 is declined here too), except that a card in FAILS_AT_CAPTURE is authorised and
 * marked to be declined when it is captured, and a card in REQUIRES_AUTHENTICATION first needs the
 * shopper's 3-D Secure step.
 */
export function evaluateAuthorisationCard(
  input: { cardNumber: string; expiry: string; cvc: string },
  now: Date,
): (CardOutcome & { ok: false }) | { ok: true; failsAtCapture: boolean; requiresAction: boolean } {
  const digits = input.cardNumber.replace(/[\s-]/g, '');
  const failsAtCapture = FAILS_AT_CAPTURE.has(digits);
  const requiresAction = REQUIRES_AUTHENTICATION.has(digits);
  if (failsAtCapture || requiresAction) {
    // Number, expiry and CVC are still checked like any card's.
    const checked = evaluateTestCard({ ...input, cardNumber: '4242424242424242' }, now);
    return checked.ok ? { ok: true, failsAtCapture, requiresAction } : checked;
  }
  const outcome = evaluateTestCard(input, now);
  return outcome.ok ? { ok: true, failsAtCapture: false, requiresAction: false } : outcome;
}
