// The storefront's screens at 375 and 1280 px, for people to compare one version of the shop with another
// (CONTRIBUTING.md "Screenshots"; the current set is kept in docs/screenshots/). It asserts nothing.
//
//   npx tsx scripts/screenshots.ts --out docs/screenshots            # starts a shop of its own from this checkout
//   npx tsx scripts/screenshots.ts --out /tmp/shots --root ../other  # …from another checkout (built with `npm run build`)
//   npx tsx scripts/screenshots.ts --out /tmp/shots --url http://localhost:3000 --admin-password … --data-dir …
//
// A shop of its own runs as the e2e shop does (demo catalogue, offline test payments, a data folder of its
// own), so the drops, the draw and the purchase it makes for the pictures land in nobody's data. A screen
// that cannot be reached (a label changed, a state that did not come) is reported and skipped, not fatal.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, request as playwrightRequest, type APIRequestContext, type Browser, type Locator, type Page } from 'playwright-core';
import { solvePow } from '../tests/support/pow';

const WIDTHS = [375, 1280] as const;
const OWN_ADMIN_PASSWORD = 'screenshots-admin-password';

const { values: args } = parseArgs({
  options: {
    out: { type: 'string', default: 'docs/screenshots' },
    url: { type: 'string' },
    root: { type: 'string', default: '.' },
    port: { type: 'string' },
    'admin-password': { type: 'string' },
    'data-dir': { type: 'string' },
    chromium: { type: 'string', default: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' },
  },
});

const outDir = path.resolve(args.out!);
const missed: string[] = [];
const taken: string[] = [];

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

interface Shop {
  base: string;
  adminPassword: string;
  /** Where the shop writes its mails (DATA_DIR/outbox), when known. */
  outbox: string | null;
  stop(): Promise<void>;
}

/** `node scripts/start.mjs` in `root` (it builds what is stale) with the e2e shop's settings and a fresh DATA_DIR. */
async function startShop(root: string, port: number): Promise<Shop> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fifty-screenshots-'));
  const base = `http://localhost:${port}`;
  const child: ChildProcess = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ADMIN_PASSWORD: OWN_ADMIN_PASSWORD,
      LOG_LEVEL: 'warn',
      HOLD_MINUTES: '10',
      NODE_ENV: 'production',
      PAYMENTS: 'offline',
      PUBLIC_URL: base,
      DEMO_DATA: 'true',
      POW_TRIES: '20',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  let exited = false;
  const exit = new Promise<void>((resolve) => child.on('exit', () => ((exited = true), resolve())));
  const started = Date.now();
  for (;;) {
    if (exited) throw new Error(`the shop exited before it was healthy:\n${output}`);
    if (Date.now() - started > 300_000) throw new Error(`the shop was not healthy after 5 min:\n${output}`);
    const ok = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(1000) })
      .then((r) => r.status === 200)
      .catch(() => false);
    if (ok) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    base,
    adminPassword: OWN_ADMIN_PASSWORD,
    outbox: path.join(dataDir, 'outbox'),
    async stop() {
      if (!exited) child.kill('SIGTERM');
      await exit;
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Every `loading="lazy"` image made eager and decoded, then back to the top of the page. */
async function loadLazyImages(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const images = [...document.querySelectorAll<HTMLImageElement>('img[loading="lazy"]')];
    for (const img of images) img.loading = 'eager';
    await Promise.all(images.map((img) => img.decode().catch(() => undefined)));
    window.scrollTo(0, 0);
  });
}

/** One screen at both widths: `<name>-375.png` and `<name>-1280.png`. */
async function shoot(page: Page, name: string, opts: { fullPage?: boolean } = {}): Promise<void> {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
    // Two frames, then every finite animation done: the page as it settles, not mid-transition.
    await page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));
    await page.evaluate(() =>
      Promise.all(
        document
          .getAnimations()
          .filter((a) => a.effect?.getComputedTiming().endTime !== Infinity)
          .map((a) => a.finished.catch(() => undefined)),
      ),
    );
    const fullPage = opts.fullPage ?? true;
    // A full-page shot shows what a scrolling shopper sees: lazy images below the fold are loaded first.
    if (fullPage) await loadLazyImages(page);
    const file = `${name}-${width}.png`;
    await page.screenshot({ path: path.join(outDir, file), fullPage });
    taken.push(file);
  }
}

/** Runs one screen's steps; a failure is noted and the run goes on. */
async function step(name: string, fn: () => Promise<void>): Promise<void> {
  try {
    await fn();
    console.log(`✓ ${name}`);
  } catch (err) {
    missed.push(`${name}: ${(err as Error).message.split('\n')[0]}`);
    console.log(`✗ ${name}: ${(err as Error).message.split('\n')[0]}`);
  }
}

async function newPage(browser: Browser, base: string): Promise<Page> {
  const context = await browser.newContext({ baseURL: base, viewport: { width: 1280, height: 900 } });
  // The newsletter popup would cover every page 3 s after load.
  await context.addInitScript(() => window.localStorage.setItem('fifty:newsletter-seen', '1'));
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  return page;
}

const hydrated = (page: Page) => page.locator('#root:not([disabled])').waitFor({ state: 'attached' });

async function gotoSettled(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await hydrated(page);
  await page.waitForLoadState('networkidle').catch(() => undefined);
}

/** A shopper of its own (a fresh cookie jar) joining a drop's room through the API, as the storefront does. */
async function joinByApi(base: string, productId: string): Promise<APIRequestContext> {
  const shopper = await playwrightRequest.newContext({ baseURL: base });
  await shopper.get('/api/cart');
  const challenge = (await (await shopper.get('/api/pow-challenge')).json()) as Parameters<typeof solvePow>[0];
  const res = await shopper.post(`/api/drops/${productId}/queue`, { data: { altcha: await solvePow(challenge) } });
  if (res.status() !== 201) throw new Error(`join: ${res.status()} ${await res.text()}`);
  return shopper;
}

/** A POST with the bot check solved as the storefront does it (newsletter, Notify me). */
async function postWithPow(base: string, url: string, data: Record<string, unknown>): Promise<void> {
  const shopper = await playwrightRequest.newContext({ baseURL: base });
  try {
    const challenge = (await (await shopper.get('/api/pow-challenge')).json()) as Parameters<typeof solvePow>[0];
    const res = await shopper.post(url, { data: { ...data, altcha: await solvePow(challenge) } });
    if (!res.ok()) throw new Error(`${url}: ${res.status()} ${await res.text()}`);
  } finally {
    await shopper.dispose();
  }
}

/** Fills the first field whose label matches, when there is one (forms differ between versions). */
async function fillIfThere(scope: Page | Locator, label: RegExp, value: string): Promise<void> {
  const field = scope.getByLabel(label).first();
  if ((await field.count()) === 0) return;
  const tag = await field.evaluate((el) => el.tagName);
  if (tag === 'SELECT') await field.selectOption({ label: value }).catch(() => field.selectOption(value));
  else await field.fill(value);
}

/** Picks a size on a product page: a radio per size, or the Size dropdown. */
async function chooseSize(page: Page, size: string): Promise<void> {
  const radio = page.getByRole('group', { name: 'Size' }).getByRole('radio', { name: new RegExp(`^${size}( — \\d+ left)?$`) });
  if ((await radio.count()) > 0) await radio.first().check();
  else if ((await page.getByLabel('Size').count()) > 0) await page.getByLabel('Size').first().selectOption(size);
}

/** The HTML part of an .eml file (quoted-printable or base64), or its text part in a <pre>. */
export function emlHtml(eml: string): string {
  const parts = eml.split(/\r?\n--[^\r\n]+\r?\n/);
  const pick = (type: string) => parts.find((p) => new RegExp(`^content-type:\\s*${type}`, 'im').test(p.split(/\r?\n\r?\n/)[0] ?? ''));
  const part = pick('text/html') ?? pick('text/plain') ?? eml;
  const sep = part.search(/\r?\n\r?\n/);
  const head = part.slice(0, sep);
  let body = part.slice(sep).replace(/^\r?\n\r?\n/, '').replace(/\r?\n--[^\r\n]*--\s*$/, '');
  const encoding = /content-transfer-encoding:\s*([\w-]+)/i.exec(head)?.[1]?.toLowerCase();
  if (encoding === 'base64') body = Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  else if (encoding === 'quoted-printable')
    body = Buffer.from(
      body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16))),
      'latin1',
    ).toString('utf8');
  return /^content-type:\s*text\/html/im.test(head) ? body : `<pre style="font:14px/1.5 monospace;white-space:pre-wrap">${body.replace(/</g, '&lt;')}</pre>`;
}

async function main(): Promise<void> {
  fs.mkdirSync(outDir, { recursive: true });
  for (const f of fs.readdirSync(outDir)) if (f.endsWith('.png')) fs.rmSync(path.join(outDir, f));

  const shop: Shop = args.url
    ? {
        base: args.url.replace(/\/$/, ''),
        adminPassword: args['admin-password'] ?? process.env.ADMIN_PASSWORD ?? '',
        outbox: args['data-dir'] ? path.join(path.resolve(args['data-dir']), 'outbox') : null,
        stop: async () => undefined,
      }
    : await startShop(path.resolve(args.root!), args.port ? Number(args.port) : await freePort());
  console.log(`shop at ${shop.base}, screenshots into ${outDir}`);

  const browser = await chromium.launch({
    executablePath: args.chromium,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  const apiShoppers: APIRequestContext[] = [];
  const owner = await playwrightRequest.newContext({ baseURL: shop.base });
  try {
    const login = await owner.post('/api/admin/login', { data: { password: shop.adminPassword } });
    if (!login.ok()) throw new Error(`admin login: ${login.status()} (give --admin-password for a shop you started)`);
    type Listed = { id: string; images: string[]; sizes?: string[]; inStock: boolean; stock: number; releaseAt?: string | null; category: string };
    const catalogue = (await (await owner.get('/api/products')).json()) as Listed[];
    const image = catalogue.find((p) => p.images.length > 0)!.images[0]!;
    const normal =
      catalogue.find((p) => p.inStock && p.stock > 2 && !p.releaseAt && p.sizes?.includes('M')) ?? catalogue.find((p) => p.inStock && p.stock > 0)!;

    const stamp = Date.now().toString(36).slice(-4).toUpperCase();
    const product = async (name: string, over: Record<string, unknown>) => {
      const res = await owner.post('/api/admin/products', {
        data: {
          name,
          description: 'Heavyweight brushed fleece, cut boxy. Numbered inside the neck.',
          price: '120.00',
          category: 'hoodies',
          materials: '100% organic cotton fleece, 480 gsm',
          sustainabilityInfo: 'Made to order in Portugal.',
          stock: 3,
          editionSize: 3,
          images: [image],
          sizes: ['S', 'M', 'L'],
          colors: [{ name: 'Black', value: '#111111' }],
          ...over,
        },
      });
      if (res.status() !== 201) throw new Error(`product ${name}: ${res.status()} ${await res.text()}`);
      return ((await res.json()) as { id: string }).id;
    };
    const setDrop = (id: string, data: Record<string, unknown>) => owner.patch(`/api/admin/drops/${id}`, { data });

    // Drops: one days away (the countdown), two released in a minute (your turn; a line, then sold out).
    const leadMs = 60_000;
    const releaseAt = Math.ceil((Date.now() + leadMs) / 1000) * 1000;
    const upcoming = await product(`Afterhours Coach Hoodie ${stamp}`, {
      price: '240.00',
      releaseAt: new Date(Date.now() + 3 * 86_400_000).toISOString(),
    });
    const turn = await product(`Nightwalk Hoodie ${stamp}`, { stock: 20, editionSize: 50, releaseAt: new Date(releaseAt).toISOString() });
    const line = await product(`Signal Crewneck ${stamp}`, { stock: 5, editionSize: 5, releaseAt: new Date(releaseAt).toISOString() });
    await setDrop(turn, { admitPerMinute: 6000 });
    await setDrop(line, { admitPerMinute: 1 });
    // A draw: open now, closing in two days.
    const drawn = await product(`Ledger Tee ${stamp}`, { price: '60.00', category: 'tshirts', stock: 1, editionSize: 1, maxPerShopper: 1 });
    const draw = await owner.post('/api/admin/draws', {
      data: {
        productId: drawn,
        opensAt: new Date(Date.now() - 60_000).toISOString(),
        closesAt: new Date(Date.now() + 2 * 86_400_000).toISOString(),
        drawAt: new Date(Date.now() + 2 * 86_400_000 + 30 * 60_000).toISOString(),
      },
    });
    if (!draw.ok()) missed.push(`draw setup: ${draw.status()} ${await draw.text()}`);

    const page = await newPage(browser, shop.base);
    // The shopper whose turn comes joins the room before the release (the draw for places).
    const turnPage = await newPage(browser, shop.base);
    const room = (p: Page) => p.getByRole('region', { name: 'Waiting room' });

    await step('drop: in the draw before the release', async () => {
      await gotoSettled(turnPage, `/product/${turn}`);
      await room(turnPage).getByRole('button', { name: 'Join the waiting room' }).click();
      await room(turnPage).getByText("You're in the draw.", { exact: true }).waitFor();
      await shoot(turnPage, '05-product-drop-joined-before-release', { fullPage: false });
    });
    for (let i = 0; i < 2; i++) apiShoppers.push(await joinByApi(shop.base, line).catch(() => owner));
    // Mails to show besides the order's: the room-open alert of a drop (its edition line) and the welcome mail.
    await step('mail setup', async () => {
      await postWithPow(shop.base, `/api/products/${line}/alerts`, { email: 'notify@example.com' });
      await postWithPow(shop.base, '/api/newsletter', { email: `welcome-${stamp.toLowerCase()}@example.com` });
    });

    await step('home', async () => {
      await gotoSettled(page, '/');
      await shoot(page, '01-home');
    });
    await step('category', async () => {
      await gotoSettled(page, '/category/tshirts');
      await shoot(page, '02-category');
    });
    await step('product', async () => {
      await gotoSettled(page, `/product/${normal.id}`);
      await shoot(page, '03-product');
    });
    await step('drop: upcoming (countdown)', async () => {
      await gotoSettled(page, `/product/${upcoming}`);
      await shoot(page, '04-product-drop-upcoming', { fullPage: false });
      await shoot(page, '04-product-drop-upcoming-full');
    });
    await step('draw', async () => {
      await gotoSettled(page, `/product/${drawn}`);
      await page.getByRole('region', { name: 'Enter the draw' }).waitFor();
      await shoot(page, '09-product-draw', { fullPage: false });
      await shoot(page, '09-product-draw-full');
    });
    await step('/drops', async () => {
      await gotoSettled(page, '/drops');
      await shoot(page, '10-drops');
    });

    await step('drop: your turn', async () => {
      await room(turnPage).getByText("It's your turn", { exact: true }).waitFor({ timeout: leadMs + 30_000 });
      await shoot(turnPage, '06-product-drop-your-turn', { fullPage: false });
    });
    const linePage = await newPage(browser, shop.base);
    await step('drop: in line', async () => {
      while (Date.now() < releaseAt + 500) await new Promise((r) => setTimeout(r, 250));
      await gotoSettled(linePage, `/product/${line}`);
      await room(linePage).getByRole('button', { name: 'Join the waiting room' }).click();
      await room(linePage).getByText(/^You're number \d+ in line$/).waitFor({ timeout: 20_000 });
      await shoot(linePage, '07-product-drop-in-line', { fullPage: false });
    });
    await step('drop: sold out', async () => {
      const res = await owner.put(`/api/admin/products/${line}`, {
        data: {
          name: `Signal Crewneck ${stamp}`,
          description: 'Heavyweight brushed fleece, cut boxy. Numbered inside the neck.',
          price: '120.00',
          category: 'hoodies',
          materials: '100% organic cotton fleece, 480 gsm',
          sustainabilityInfo: 'Made to order in Portugal.',
          stock: 0,
          editionSize: 5,
          images: [image],
          sizes: ['S', 'M', 'L'],
          colors: [{ name: 'Black', value: '#111111' }],
          releaseAt: new Date(releaseAt).toISOString(),
        },
      });
      if (!res.ok()) throw new Error(`sell out: ${res.status()} ${await res.text()}`);
      await room(linePage).getByText('Sold out', { exact: true }).waitFor({ timeout: 20_000 });
      await shoot(linePage, '08-product-drop-sold-out', { fullPage: false });
    });

    // A purchase of a piece on sale now: the cart drawer, both checkout steps and the success page.
    await step('cart drawer', async () => {
      await page.setViewportSize({ width: 1280, height: 900 });
      await gotoSettled(page, `/product/${normal.id}`);
      await chooseSize(page, 'M');
      await page.getByRole('button', { name: /^Add to Cart - \$/ }).click();
      await page.getByRole('dialog', { name: 'Shopping Cart' }).waitFor();
      await shoot(page, '11-cart-drawer', { fullPage: false });
    });
    await step('checkout: customer info', async () => {
      await page.getByRole('dialog', { name: 'Shopping Cart' }).getByRole('button', { name: 'Checkout' }).click();
      await page.waitForURL(/\/checkout$/);
      await hydrated(page);
      // The form comes after the checkout's own data (a skeleton until then).
      await page.getByLabel(/^Email/).first().waitFor({ timeout: 30_000 });
      await fillIfThere(page, /^Email/, 'ada@example.com');
      await fillIfThere(page, /^First Name/i, 'Ada');
      await fillIfThere(page, /^Last Name/i, 'Lovelace');
      await fillIfThere(page, /^(Address|Address line 1|Street address)\b/i, '12 Analytical Way');
      await fillIfThere(page, /^City/i, 'Brooklyn');
      await fillIfThere(page, /^State/i, 'NY');
      await fillIfThere(page, /^(ZIP Code|ZIP|Postal code|ZIP \/ postal code)/i, '11201');
      await shoot(page, '12-checkout-info');
    });
    await step('checkout: payment', async () => {
      await page.getByRole('button', { name: 'Continue to Payment' }).click();
      await page.getByLabel('Card number').waitFor({ timeout: 30_000 });
      await page.getByLabel('Card number').fill('4242 4242 4242 4242');
      await page.getByLabel('Expiry (MM/YY)').fill('12/34');
      await page.getByLabel('CVC').fill('123');
      await shoot(page, '13-checkout-payment');
    });
    await step('success', async () => {
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.getByRole('button', { name: /^Pay \$\d+\.\d{2}$/ }).click();
      await page.waitForURL(/\/order-success$/, { timeout: 30_000 });
      await page.getByTestId('order-number').waitFor();
      await shoot(page, '14-success');
    });

    await step('mails', async () => {
      if (!shop.outbox) throw new Error('no outbox (give --data-dir for a shop you started)');
      // The order's confirmation is written a moment after the payment; the drop alert when
      // the shop's job next runs. Three mails, or what came within 30 s; the newest three are shown.
      const emls = () => (fs.existsSync(shop.outbox!) ? fs.readdirSync(shop.outbox!).filter((f) => f.endsWith('.eml')) : []);
      for (let i = 0; i < 120 && emls().length < 3; i++) await new Promise((r) => setTimeout(r, 250));
      const newest = emls()
        .map((f) => ({ f, t: fs.statSync(path.join(shop.outbox!, f)).mtimeMs }))
        .sort((a, b) => b.t - a.t)
        .slice(0, 3);
      if (newest.length === 0) throw new Error('no mails in the outbox');
      for (const [i, { f }] of newest.entries()) {
        const mail = await newPage(browser, shop.base);
        // The shop sends its files with Cross-Origin-Resource-Policy: same-origin, which a page of another origin
        // (this one, about:blank) may not load. Mail clients fetch a mail's images through their own proxies
        // (no such check), so the header is left out here to show the mail as they do.
        await mail.route(`${shop.base}/**`, async (route) => {
          const response = await route.fetch();
          const headers = { ...response.headers() };
          delete headers['cross-origin-resource-policy'];
          await route.fulfill({ response, headers });
        });
        await mail.setContent(emlHtml(fs.readFileSync(path.join(shop.outbox, f), 'utf8')), { waitUntil: 'load' });
        await shoot(mail, `15-mail-${i + 1}`);
        await mail.context().close();
      }
    });
  } finally {
    for (const s of apiShoppers) if (s !== owner) await s.dispose();
    await owner.dispose();
    await browser.close();
    await shop.stop();
  }
  fs.writeFileSync(
    path.join(outDir, 'README.md'),
    [
      '# Screenshots',
      '',
      'Made by `npx tsx scripts/screenshots.ts` (CONTRIBUTING.md "Screenshots"): each screen at 375 and 1280 px.',
      '',
      ...[...taken].sort().map((f) => `- [${f}](${f})`),
      ...(missed.length ? ['', 'Not reached:', '', ...missed.map((m) => `- ${m}`)] : []),
      '',
    ].join('\n'),
  );
  console.log(`${taken.length} screenshots in ${outDir}${missed.length ? `; not reached:\n  ${missed.join('\n  ')}` : ''}`);
}

await main();
