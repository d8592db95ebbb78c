// A shop of one spec's own: its own data folder, port and PostgreSQL, on the storefront the e2e run built
// (E2E_CLIENT_DIR), for a spec that must move the shop's clock or needs a catalogue no other spec touches.
// Its drop-day clock can be moved forward (TEST_CLOCK_FILE, server/lib/db-clock.ts `createSteeredClock`),
// so a spec lets a pass lapse or a draw's window close at once instead of waiting for it in real time.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { E2E_ADMIN_PASSWORD } from './e2e';
import { E2E_POW_TRIES } from './e2e-env';
import { freePort, spawnShop, waitHealthy } from './shop-process';

export interface PrivateShop {
  /** http://localhost:<port> (the browser's cookies are per host name, so the name, not 127.0.0.1). */
  base: string;
  /** The mails in its outbox (DATA_DIR/outbox, one .eml per message) that mention every one of `texts`. */
  mailsWith(...texts: string[]): string[];
  /** Moves the shop's drop-day clock forward by `ms` (for the app and its SQL statements alike). */
  moveClock(ms: number): void;
  /** How far the shop's clock runs ahead of real time, in ms. */
  readonly clockShiftMs: number;
  /** SIGTERM, then the folder removed. */
  stop(): Promise<void>;
}

export async function startPrivateShop(env: Record<string, string> = {}): Promise<PrivateShop> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fifty-e2e-own-'));
  const clockFile = path.join(dataDir, 'test-clock-shift-ms');
  const port = await freePort();
  const base = `http://localhost:${port}`;
  const shop = await spawnShop({
    dataDir,
    port,
    env: {
      // Not production: a production shop refuses a movable clock.
      NODE_ENV: 'test',
      PUBLIC_URL: base,
      CLIENT_DIR: process.env.E2E_CLIENT_DIR!,
      ADMIN_PASSWORD: E2E_ADMIN_PASSWORD,
      PAYMENTS: 'offline',
      DEMO_DATA: 'true',
      POW_TRIES: E2E_POW_TRIES,
      TEST_CLOCK_FILE: clockFile,
      ...env,
    },
  });
  try {
    await waitHealthy(shop, 90_000);
  } catch (err) {
    shop.child.kill('SIGTERM');
    await shop.exited;
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
  let shift = 0;
  const outbox = path.join(dataDir, 'outbox');
  return {
    base,
    mailsWith: (...texts) =>
      fs.existsSync(outbox)
        ? fs
            .readdirSync(outbox)
            .filter((f) => f.endsWith('.eml'))
            // Quoted-printable soft line breaks undone, so a long link is found whole.
            .map((f) => fs.readFileSync(path.join(outbox, f), 'utf8').replace(/=\r?\n/g, ''))
            .filter((m) => texts.every((t) => m.includes(t)))
        : [],
    moveClock(ms) {
      shift += ms;
      fs.writeFileSync(clockFile, String(shift));
    },
    get clockShiftMs() {
      return shift;
    },
    async stop() {
      shop.child.kill('SIGTERM');
      await shop.exited;
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
