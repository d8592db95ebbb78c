// Owner login under attack (docs/security.md, ADR 012): four attacker loops from ONE address send
// password guesses with forged "known device" cookies (a shopper's own signed fifty_sid value, the
// attack that once passed), against a spawned shop in production mode. Meanwhile the owner, from the
// very same address (a shared NAT: the worst case), logs in with the real device cookie of an earlier
// login, and a new browser of the owner's logs in from another address. Reports the tries each needed
// and how many of the attacker's guesses reached the password check per minute.
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Scenario } from '../scenario-runner';
import { stop } from '../support/server-process';
import { benchEnv, migrateBenchDatabase, startShopInstances } from '../support/shop-instances';

const PASSWORD = 'bench-admin-password';
const ATTACK_MS = Number(process.env.OWNER_LOGIN_ATTACK_MS ?? 40_000);
const LOOPS = 4;
const ATTACKER = '203.0.113.66';

/** `name=value` pairs of a response's Set-Cookie lines. */
function cookiesOf(res: Response): Map<string, string> {
  return new Map(
    res.headers.getSetCookie().map((line) => {
      const pair = line.split(';')[0]!;
      const eq = pair.indexOf('=');
      return [pair.slice(0, eq), pair.slice(eq + 1)] as [string, string];
    }),
  );
}

const scenario: Scenario = async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fifty-owner-login-'));
  const servers: ChildProcess[] = [];
  try {
    // TRUST_PROXY stays the default (loopback): the bench stands in for the proxy and names each client's address.
    const env = benchEnv(dataDir, undefined, { ADMIN_PASSWORD: PASSWORD });
    migrateBenchDatabase(env);
    const [base] = await startShopInstances(env, 1, servers);
    const login = (password: string, from: string, cookie = '') =>
      fetch(`${base}/api/admin/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': from, ...(cookie ? { cookie } : {}) },
        body: JSON.stringify({ password }),
      });

    // The owner logged in once from home before: the browser keeps its device cookie.
    const first = await login(PASSWORD, '198.51.100.1');
    if (first.status !== 200) throw new Error(`owner's first login: ${first.status} ${await first.text()}`);
    const device = cookiesOf(first).get('fifty_admin_device');
    if (!device) throw new Error('no device cookie after a successful login');

    // The attacker's own signed session cookie (any shopper gets one by adding to the cart).
    const [product] = (await (await fetch(`${base}/api/products`)).json()) as Array<{ id: string; sizes: string[]; colors: Array<{ name: string }> }>;
    const cart = await fetch(`${base}/api/cart`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': ATTACKER },
      body: JSON.stringify({ productId: product!.id, selectedSize: product!.sizes[0], selectedColor: product!.colors[0]?.name }),
    });
    const sid = cookiesOf(cart).get('fifty_sid');
    if (!sid) throw new Error(`no session cookie from the cart (${cart.status} ${await cart.text()})`);

    const counts = { checked: 0, slowed: 0, other: 0 };
    const started = Date.now();
    const until = started + ATTACK_MS;
    const loop = async (n: number) => {
      for (let i = 0; Date.now() < until; i++) {
        const res = await login(`guess-${n}-${i}`, ATTACKER, `fifty_admin_device=${sid}`);
        await res.arrayBuffer();
        if (res.status === 401) counts.checked++;
        else if (res.status === 429) counts.slowed++;
        else counts.other++;
      }
    };
    const attack = Promise.all(Array.from({ length: LOOPS }, (_, n) => loop(n)));

    // Ten seconds in, the attack is in full swing: the owner tries from the attacker's own address, then a
    // new browser of the owner's from another address; each retries once a second until it gets in.
    await new Promise((r) => setTimeout(r, Math.min(10_000, ATTACK_MS / 4)));
    const triesUntilIn = async (from: string, cookie: string) => {
      for (let tries = 1; tries <= 30; tries++) {
        const res = await login(PASSWORD, from, cookie);
        await res.arrayBuffer();
        if (res.status === 200) return tries;
        await new Promise((r) => setTimeout(r, 1000));
      }
      return Infinity;
    };
    const ownerDevice = await triesUntilIn(ATTACKER, `fifty_admin_device=${device}`);
    const ownerNewBrowser = await triesUntilIn('198.51.100.2', '');
    const ownerNewOnAttackerAddress = await login(PASSWORD, ATTACKER);
    await ownerNewOnAttackerAddress.arrayBuffer();
    await attack;
    const minutes = (Date.now() - started) / 60_000;
    const perMinute = counts.checked / minutes;
    const total = counts.checked + counts.slowed + counts.other;

    return {
      rows: [
        { what: 'owner with a real device, same address as the attack: tries to log in', target: '1', measured: String(ownerDevice), ok: ownerDevice === 1 },
        { what: "owner's new browser from another address: tries to log in", target: '1', measured: String(ownerNewBrowser), ok: ownerNewBrowser === 1 },
        {
          what: `attacker (${LOOPS} loops, one address, forged device cookie): guesses checked`,
          target: '≤ 11 in 40 s (5 free, then 1 s doubling)',
          measured: `${counts.checked} of ${total} sent in ${(minutes * 60).toFixed(0)} s (${perMinute.toFixed(1)}/min; ${counts.slowed} slowed, ${counts.other} other)`,
          ok: counts.checked <= 5 + Math.ceil(Math.log2(ATTACK_MS / 1000 + 1)) && counts.other === 0,
        },
        {
          what: "owner's new browser on the attacker's address",
          target: '429 (waits with the address: slowed, not locked)',
          measured: String(ownerNewOnAttackerAddress.status),
          ok: ownerNewOnAttackerAddress.status === 429,
        },
      ],
    };
  } finally {
    await Promise.all(servers.map((s) => stop(s, 15_000)));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
};

export default scenario;
