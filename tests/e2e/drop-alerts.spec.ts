import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, expect, type Browser, type Page } from '@playwright/test';
import { freePort, stop, waitFor } from '../../bench/support/server-process';
import { E2E_ADMIN_PASSWORD, loginOwner, shootAtBothWidths, type OwnerApi } from '../support/e2e';
import { E2E_POW_TRIES } from '../support/e2e-env';

// Notify me that people can act on (ADR 011, "Alerts people can act on"): the signup dialog offers
// 'Add to calendar' (an .ics download of the room's opening), and the mail goes out when the waiting room
// opens, before the release, with the same event attached. The mail is read from the shop's outbox, so the
// journey runs on a shop of this file's own (same build, own data directory, DROP_RAFFLE_MINUTES=1 so the
// room opens a minute before the release and the test waits seconds, not minutes).

test.describe.configure({ mode: 'serial' });

let server: ChildProcess | null = null;
let baseURL = '';
let dataDir = '';
let owner: OwnerApi;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  const clientDir = process.env.E2E_CLIENT_DIR;
  if (!clientDir || !fs.existsSync(path.join(clientDir, 'index.html'))) throw new Error('E2E_CLIENT_DIR has no built client');
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fifty-e2e-alerts-'));
  const port = await freePort();
  baseURL = `http://localhost:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    ADMIN_PASSWORD: E2E_ADMIN_PASSWORD,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    PAYMENTS: 'offline',
    PUBLIC_URL: baseURL,
    DEMO_DATA: 'true',
    CLIENT_DIR: clientDir,
    FIFTY_SKIP_BUILD: '1',
    DROP_RAFFLE_MINUTES: '1',
    POW_TRIES: E2E_POW_TRIES,
  };
  delete env.DATABASE_URL;
  server = spawn(process.execPath, ['scripts/start.mjs'], { env, stdio: ['ignore', 'inherit', 'inherit'] });
  await waitFor(`${baseURL}/healthz`, server, 90_000);
  owner = await loginOwner(baseURL);
});

test.afterAll(async () => {
  await owner?.dispose();
  if (server) await stop(server, 10_000);
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

async function shopPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ baseURL, acceptDownloads: true });
  await context.addInitScript(() => window.localStorage.setItem('fifty:newsletter-seen', '1'));
  return context.newPage();
}

/** The .eml files in the shop's outbox that mention `text`. */
const mailsWith = (text: string) => {
  const dir = path.join(dataDir, 'outbox');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.eml'))
    .map((f) => fs.readFileSync(path.join(dir, f), 'utf8').replace(/=\r?\n/g, ''))
    .filter((m) => m.includes(text));
};

test('Notify me → Add to calendar (.ics of the room opening) → the room-opening mail in the outbox, before the release', async ({ browser }, testInfo) => {
  test.setTimeout(150_000);
  // The room opens 30 s from now (DROP_RAFFLE_MINUTES=1 before the release), time to sign up before it does.
  const releaseAt = Math.ceil((Date.now() + 90_000) / 1000) * 1000;
  const roomOpensAt = releaseAt - 60_000;
  const name = `Alert Cap ${Date.now().toString(36)}`;
  const id = await owner.createProduct({
    name,
    description: 'A cap that drops on time. Numbered inside.',
    price: '35.00',
    category: 'accessories',
    materials: 'Organic cotton twill',
    sustainabilityInfo: 'Made to order.',
    stock: 5,
    images: [owner.image],
    sizes: ['One Size'],
    colors: [{ name: 'Black', value: '#111111' }],
    releaseAt: new Date(releaseAt).toISOString(),
  });
  const who = `fan-${Date.now()}@example.com`;
  const page = await shopPage(browser);
  await page.goto(`/product/${id}`);

  const dialog = page.getByRole('dialog', { name: 'Notify me' });
  await test.step('sign up in the Notify me dialog', async () => {
    // The server-rendered button works once the page has hydrated: click until the dialog opens.
    await expect(async () => {
      await page.getByRole('button', { name: 'Notify me' }).click();
      await expect(dialog).toBeVisible({ timeout: 1_000 });
    }).toPass();
    await expect(dialog).toContainText('when the waiting room for');
    await dialog.getByLabel('Email address').fill(who);
    await dialog.getByRole('button', { name: 'Notify me' }).click();
    await expect(dialog.getByRole('status')).toHaveText("We'll e-mail you when it drops.", { timeout: 20_000 });
  });

  await test.step('Add to calendar downloads the drop event: VEVENT at the room opening, with an alarm', async () => {
    const link = dialog.getByRole('link', { name: 'Add to calendar' });
    await expect(link).toBeVisible();
    await shootAtBothWidths(page, testInfo, 'notify-me-add-to-calendar');
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toBe('drop.ics');
    // RFC 5545 folds long lines (CRLF + a space): unfolded before reading.
    const ics = fs.readFileSync(await download.path(), 'utf8').replace(/\r?\n[ \t]/g, '');
    expect(ics).toMatch(/^BEGIN:VCALENDAR\r?\n/);
    const stamp = new Date(roomOpensAt).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
    expect(ics).toContain(`DTSTART:${stamp}`);
    expect(ics).toMatch(/UID:drop-[0-9a-f-]+@localhost:\d+/);
    expect(ics).toContain('BEGIN:VALARM');
    expect(ics).toContain(`URL;VALUE=URI:${baseURL}/product/${id}#waiting-room`);
  });

  await test.step('the mail is in the outbox once the room opens, before the release', async () => {
    await expect.poll(() => mailsWith(`/product/${id}#waiting-room`).length, { timeout: 60_000, intervals: [1_000] }).toBe(1);
    expect(Date.now()).toBeLessThan(releaseAt);
    const [eml] = mailsWith(`/product/${id}#waiting-room`);
    expect(eml).toMatch(new RegExp(`^To: ${who.replace(/[.]/g, '\\.')}$`, 'm'));
    expect(eml).toContain('to be in the draw');
    expect(eml).toMatch(/Content-Type: text\/calendar/);
    expect(eml).toMatch(/filename=(")?drop\.ics/);
  });

  await test.step('the mail links straight to the room', async () => {
    await page.keyboard.press('Escape');
    await page.goto(`/product/${id}#waiting-room`);
    await expect(page.getByRole('region', { name: 'Waiting room' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Join the waiting room' })).toBeVisible();
    await shootAtBothWidths(page, testInfo, 'room-open-from-mail');
  });

  await test.step("in the draw: E-mail me when it's my turn, then Leave the line", async () => {
    const room = page.getByRole('region', { name: 'Waiting room' });
    await room.getByRole('button', { name: 'Join the waiting room' }).click();
    const ask = room.getByRole('button', { name: "E-mail me when it's my turn" });
    await expect(ask).toBeVisible({ timeout: 30_000 });
    await ask.click();
    const field = room.getByRole('textbox', { name: "E-mail me when it's my turn" });
    await expect(field).toBeFocused();
    await field.fill(who);
    await room.getByRole('button', { name: 'Save' }).click();
    await expect(room.getByRole('status').filter({ hasText: "We'll e-mail you when it's your turn." })).toBeVisible();
    await shootAtBothWidths(page, testInfo, 'room-turn-email-saved');

    await room.getByRole('button', { name: 'Leave the line' }).click();
    const confirm = room.getByRole('button', { name: 'Yes, leave the line' });
    await expect(confirm).toBeFocused();
    await shootAtBothWidths(page, testInfo, 'room-leave-confirm');
    await confirm.click();
    const left = room.getByText('You left the line.');
    await expect(left).toBeVisible();
    await expect(left).toBeFocused();
    // A left place can be taken again, at the back (the proof of work again).
    await room.getByRole('button', { name: 'Rejoin the line' }).click();
    await expect(room.getByRole('button', { name: "E-mail me when it's my turn" })).toBeVisible({ timeout: 30_000 });
  });
  await page.context().close();
});
