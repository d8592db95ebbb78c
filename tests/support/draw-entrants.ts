import type { EnterDrawBody } from '../../common/contracts/draws';
import type { MailMessage } from '../../server/lib/mailer';
import type { TestClient } from './build-test-app';
import { solvePow } from './pow';

/** What a shopper sends to enter a draw, before the proof of work. */
export type EntrantBody = Omit<EnterDrawBody, 'altcha'>;

/** The n-th entrant of a test: their own mailbox, street and card expiry (so their own card fingerprint). */
function nthEntrant(n: number): EntrantBody {
  return {
    email: `entrant${n}@example.com`,
    firstName: 'Ada',
    lastName: `Entrant${n}`,
    phone: null,
    shippingAddress: `${100 + n} Main Street`,
    shippingCity: 'Springfield',
    shippingState: 'IL',
    shippingZip: '62701',
    shippingCountry: 'US',
    size: 'M',
    card: {
      cardNumber: '4242 4242 4242 4242',
      expiry: `${String((n % 12) + 1).padStart(2, '0')}/${40 + Math.floor(n / 12)}`,
      cvc: '123',
    },
  };
}

/**
 * A maker of entrants for a draw test: a different person each call, shaped by `style(n)` and then by the
 * call's own `over` (e.g. the same mailbox spelt another way, to be one person again).
 */
export function entrantsOf(style: (n: number) => Partial<EntrantBody> = () => ({})) {
  let n = 0;
  return (over: Partial<EntrantBody> = {}): EntrantBody => {
    n++;
    return { ...nthEntrant(n), ...style(n), ...over };
  };
}

/** POST /api/draws/:id/entries with a solved proof of work (or the one given, to spend it twice). */
export async function enterDraw(c: TestClient, drawId: string, body: EntrantBody, altcha?: string) {
  const pow = altcha ?? (await solvePow((await c.get('/api/pow-challenge')).json()));
  return c.post(`/api/draws/${drawId}/entries`, { ...body, altcha: pow });
}

/** The link token of the newest confirmation mail to `email` among `sent`. */
export function linkTokenIn(sent: readonly MailMessage[], email: string): string {
  const mail = [...sent].reverse().find((m) => m.to === email && m.subject.startsWith('Confirm your entry'));
  const m = /\/draw-entry\/([A-Za-z0-9_-]{43})/.exec(mail?.text ?? '');
  if (!m) throw new Error(`no confirmation link for ${email}`);
  return m[1]!;
}
