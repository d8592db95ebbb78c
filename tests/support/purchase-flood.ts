// A flood of shoppers buying over real HTTP, for fault tests and benches that break something under it
// (the database killed or restarted, a SIGTERM): what each answer was, and whether every shopper whose
// card was charged got their order. A charged shopper who is told 503 + Retry-After asks again, as the
// storefront does; nobody else does (a new purchase is the next try).
import { openDatabase } from '../../server/db/client';

/**
 * A product with stock for a whole flood (size M, colour White), put on a spawned shop's own embedded
 * database; the shop hears of it as of another instance's change (NOTIFY), so the next read lists it.
 */
export async function addFloodProduct(dataDir: string): Promise<string> {
  const db = await openDatabase({ dataDir, embeddedMode: 'shared', poolSize: 1 });
  try {
    const { rows } = await db.pool.query<{ id: string }>(
      `insert into products (name, price_cents, category, stock, edition_size, sizes, colors, max_per_shopper)
       values ('Flood Tee', 4500, 'tshirts', 100000, 100000, '["M"]', '[{"name":"White","value":"#FFFFFF"}]', 50)
       returning id`,
    );
    await db.pool.query("select pg_notify('fifty_catalog', 'flood')");
    return rows[0]!.id;
  } finally {
    await db.close();
  }
}

/** One shopper's cookie jar over fetch, keeping the Retry-After of each answer. */
class FloodShopper {
  private cookies = new Map<string, string>();
  constructor(private readonly base: string) {}

  async call(method: string, url: string, body?: unknown) {
    const headers: Record<string, string> = { origin: this.base };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(this.base + url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, i), pair!.slice(i + 1));
    }
    const text = await res.text();
    let json: Record<string, unknown>;
    try {
      json = JSON.parse(text) as Record<string, unknown>;
    } catch {
      json = { raw: text.slice(0, 200) };
    }
    return { status: res.status, json, retryAfter: res.headers.get('retry-after') };
  }
}

/**
 * A step's answer: 'ok', '503' (with Retry-After and { message }), 'refused' (another 4xx), 'bad' (anything
 * else); or no answer: 'closed' (the connection was refused: nobody listens) or 'dropped' (reset, hung up).
 */
type Outcome = 'ok' | '503' | 'refused' | 'bad' | 'closed' | 'dropped';

export interface FloodReport {
  /** Order numbers the shoppers were shown. */
  orders: string[];
  /** Card charges the shoppers saw (confirm answered 200): the intent and the order they got, or null. */
  charged: Array<{ intentId: string; orderNumber: string | null }>;
  /** Answers by kind over the whole flood. */
  counts: Record<Outcome, number>;
  /** Every answer that was neither 2xx, a 4xx nor a well-formed 503, and every dropped connection. */
  bad: string[];
}

export interface Flood {
  readonly counts: FloodReport['counts'];
  /** Answers counted since the flood started: a test waits for some before breaking something. */
  readonly answers: number;
  /** Orders shown to shoppers so far. */
  readonly ordered: number;
  stop(): Promise<FloodReport>;
}

export const floodCustomer = (i: number) => ({
  email: `flood${i}@example.com`,
  firstName: 'Flood',
  lastName: 'Shopper',
  phone: null,
  shippingAddress: `${i + 1} Flood Lane`,
  shippingCity: 'Springfield',
  shippingState: 'IL',
  shippingZip: '62701',
  shippingCountry: 'US',
});
/** Shopper i's own card (by expiry), so the per-shopper limit never refuses the flood. */
export const floodCard = (i: number) => ({
  cardNumber: '4242 4242 4242 4242',
  expiry: `${String((i % 12) + 1).padStart(2, '0')}/${40 + Math.floor(i / 12) % 50}`,
  cvc: '123',
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface FloodOptions {
  shoppers: number;
  /** A product with stock enough for the whole flood (size M, colour White). */
  productId: string;
  /** After stop(), how long a charged shopper keeps asking for their order. Default 20 s. */
  settleMs?: number;
  /** Longest wait before asking again after a 503 (its Retry-After says 5 s; a flood in a test waits less). */
  maxBackoffMs?: number;
  /** Shopper numbers start here (distinct identities across floods on one database). */
  firstShopper?: number;
  /**
   * A shopper told 503 (or whose connection is refused) stops instead of starting a new purchase, as a
   * polite client given Retry-After does while a shop stops; a charged one still asks for their order.
   */
  stopWhenRefused?: boolean;
}

export function startPurchaseFlood(base: string, opts: FloodOptions): Flood {
  const counts: FloodReport['counts'] = { ok: 0, '503': 0, refused: 0, bad: 0, closed: 0, dropped: 0 };
  const bad: string[] = [];
  const orders: string[] = [];
  const charged: FloodReport['charged'] = [];
  let stopping = false;
  let settleBy = Infinity;
  let next = opts.firstShopper ?? 0;
  const maxBackoffMs = opts.maxBackoffMs ?? 250;

  async function step(shopper: FloodShopper, method: string, url: string, body?: unknown) {
    let res: { status: number; json: Record<string, unknown>; retryAfter: string | null };
    try {
      res = await shopper.call(method, url, body);
    } catch (err) {
      const code = (err as { cause?: { code?: string } }).cause?.code;
      if (code === 'ECONNREFUSED') {
        counts.closed++;
        return { outcome: 'closed' as const, res: null };
      }
      counts.dropped++;
      bad.push(`${method} ${url}: ${(err as Error).message} ${code ?? ''}`.trim());
      return { outcome: 'dropped' as const, res: null };
    }
    let outcome: Outcome;
    if (res.status >= 200 && res.status < 300) outcome = 'ok';
    else if (res.status === 503 && res.retryAfter && typeof res.json.message === 'string') outcome = '503';
    else if (res.status >= 400 && res.status < 500 && typeof res.json.message === 'string') outcome = 'refused';
    else outcome = 'bad';
    counts[outcome]++;
    if (outcome === 'bad') bad.push(`${method} ${url}: ${res.status} ${JSON.stringify(res.json).slice(0, 200)}`);
    return { outcome, res };
  }

  async function backoff(retryAfter: string | null | undefined) {
    await sleep(Math.min(Number(retryAfter ?? 1) * 1000, maxBackoffMs));
  }

  /** One purchase; false when this shopper should stop (stopWhenRefused and a 503 or a closed shop). */
  async function purchase(i: number): Promise<boolean> {
    const s = new FloodShopper(base);
    const failed = async (r: Awaited<ReturnType<typeof step>>) => {
      if (opts.stopWhenRefused && (r.outcome === '503' || r.outcome === 'closed')) return false;
      await backoff(r.res?.retryAfter);
      return true;
    };
    const add = await step(s, 'POST', '/api/cart', { productId: opts.productId, quantity: 1, selectedSize: 'M', selectedColor: 'White' });
    if (add.outcome !== 'ok') return failed(add);
    const info = await step(s, 'POST', '/api/customer-info', floodCustomer(i));
    if (info.outcome !== 'ok') return failed(info);
    const intent = await step(s, 'POST', '/api/create-payment-intent', {});
    if (intent.outcome !== 'ok') return failed(intent);
    const paid = await step(s, 'POST', '/api/payments/offline/confirm', { clientSecret: intent.res!.json.clientSecret, ...floodCard(i) });
    if (paid.outcome !== 'ok') return failed(paid);
    const intentId = String(intent.res!.json.paymentIntentId ?? paid.res!.json.id);
    const record = { intentId, orderNumber: null as string | null };
    charged.push(record);
    // Charged: this shopper asks for their order until they get it (the storefront's success page does).
    for (;;) {
      const done = await step(s, 'POST', '/api/payment-success', { paymentIntentId: intentId });
      if (done.outcome === 'ok') {
        record.orderNumber = String(done.res!.json.orderNumber);
        orders.push(record.orderNumber);
        return true;
      }
      if (!['503', 'dropped', 'closed'].includes(done.outcome) || Date.now() > settleBy) return !opts.stopWhenRefused;
      await backoff(done.res?.retryAfter);
    }
  }

  const shoppers = Array.from({ length: opts.shoppers }, async () => {
    while (!stopping && (await purchase(next++)));
  });

  return {
    counts,
    get ordered() {
      return orders.length;
    },
    get answers() {
      return Object.values(counts).reduce((a, b) => a + b, 0);
    },
    async stop() {
      stopping = true;
      settleBy = Date.now() + (opts.settleMs ?? 20_000);
      await Promise.all(shoppers);
      return { orders, charged, counts, bad };
    },
  };
}
