// The owner's login while one IPv6 /48 guesses (docs/security.md, section 2): 40 password guesses at once from
// 40 /64s of ONE /48, then, while that /48 keeps guessing from ever new /64s (4 loops), the owner logs in 10
// times with the right password, each time from a new browser (no device cookie) on another network, one a
// second; last, a new browser of the owner's inside the flooding /48. Against a spawned shop in production
// mode. Before: the slow-down counted /64s while every other budget counts /48s (IPV6_PREFIX), so the 40 were
// 40 networks: 30 checked at once, the shop's one-a-second slot then held, and the owner refused 10 of 10.
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Scenario } from '../scenario-runner';
import { stop } from '../support/server-process';
import { benchEnv, migrateBenchDatabase, startShopInstances } from '../support/shop-instances';

const PASSWORD = 'bench-admin-password';
const LOOPS = 4;
/** The attacker's /48: each guess from a /64 of its own. */
const attackerAt = (n: number) => `2001:db8:48:${(n + 1).toString(16)}::1`;
const OWNER = '2001:db8:99::1';

const scenario: Scenario = async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fifty-owner-login-48-'));
  const servers: ChildProcess[] = [];
  try {
    const env = benchEnv(dataDir, undefined, { ADMIN_PASSWORD: PASSWORD });
    migrateBenchDatabase(env);
    const [base] = await startShopInstances(env, 1, servers);
    const login = async (password: string, from: string) => {
      const res = await fetch(`${base}/api/admin/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': from },
        body: JSON.stringify({ password }),
      });
      await res.arrayBuffer();
      return { status: res.status, retryAfter: Number(res.headers.get('retry-after') ?? 0) };
    };

    // The burst: 40 guesses at once, one per /64.
    const burstStarted = Date.now();
    const burst = await Promise.all(Array.from({ length: 40 }, (_, i) => login(`guess-${i}`, attackerAt(i))));
    const burstSeconds = (Date.now() - burstStarted) / 1000;
    const burstChecked = burst.filter((r) => r.status === 401).length;
    // 5 free, then waits of 1 s, 2 s, 4 s…: a burst that takes longer than a second may see one or two more.
    const burstBound = 5 + Math.ceil(Math.log2(burstSeconds + 1));

    // The /48 keeps guessing while the owner logs in.
    let n = 40;
    let done = false;
    const flood = { checked: 0, slowed: 0, other: 0 };
    const loop = async () => {
      while (!done) {
        const { status } = await login(`guess-${n}`, attackerAt(n++));
        if (status === 401) flood.checked++;
        else if (status === 429) flood.slowed++;
        else flood.other++;
      }
    };
    const attack = Promise.all(Array.from({ length: LOOPS }, loop));
    const started = Date.now();
    const owner: number[] = [];
    for (let i = 0; i < 10; i++) {
      owner.push((await login(PASSWORD, OWNER)).status);
      await new Promise((r) => setTimeout(r, 1000));
    }
    const inside = await login(PASSWORD, '2001:db8:48:ffff::1');
    done = true;
    await attack;
    const floodSeconds = (Date.now() - started) / 1000;
    const accepted = owner.filter((s) => s === 200).length;

    return {
      rows: [
        {
          what: '40 guesses at once from 40 /64s of one /48',
          target: '5 reach the password check, then one per wait of 1 s, 2 s… (one /48 is one network)',
          measured: `${burstChecked} checked, ${burst.filter((r) => r.status === 429).length} slowed (429) in ${burstSeconds.toFixed(1)} s`,
          ok: burstChecked <= burstBound,
        },
        {
          what: "then the owner's right password from a new browser on another network, 10 times, while the /48 keeps guessing",
          target: '10 of 10 accepted',
          measured: `${accepted} of 10 (${owner.join(', ')})`,
          ok: accepted === 10,
        },
        {
          what: `the /48's ${LOOPS} loops meanwhile (a new /64 for every guess)`,
          target: 'slowed, not checked',
          measured: `${flood.checked} checked, ${flood.slowed} slowed, ${flood.other} other in ${floodSeconds.toFixed(0)} s`,
          ok: flood.other === 0 && flood.checked <= 6,
        },
        {
          what: "the owner's new browser inside the flooding /48",
          target: '429 with a Retry-After (waits with its /48: slowed, not locked)',
          measured: `${inside.status}, Retry-After ${inside.retryAfter} s`,
          ok: inside.status === 429 && inside.retryAfter >= 1 && inside.retryAfter <= 15 * 60,
        },
      ],
    };
  } finally {
    await Promise.all(servers.map((s) => stop(s, 15_000)));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
};

export default scenario;
