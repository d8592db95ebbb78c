import fs from 'node:fs';
import { test, expect, type Browser, type Page } from '@playwright/test';
import { loginOwner, shootAtBothWidths, type OwnerApi } from '../support/e2e';
import { startPrivateShop, type PrivateShop } from '../support/private-shop';

// Notify me that people can act on (ADR 011, "Alerts people can act on"): the signup dialog offers
// 'Add to calendar' (an .ics download of the room's opening), and the mail goes out when the waiting room
// opens, before the release, with the same event attached. The mail is read from the shop's outbox, so the
// journey runs on a shop of this file's own (same build, own data directory, DROP_RAFFLE_MINUTES=1 so the
// room opens a minute before the release), whose clock the test moves to the room's opening.

test.describe.configure({ mode: 'serial' });

let shop: PrivateShop;
let baseURL = '';
let owner: OwnerApi;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  shop = await startPrivateShop({ DROP_RAFFLE_MINUTES: '1' });
  baseURL = shop.base;
  owner = await loginOwner(baseURL);
});

test.afterAll(async () => {
  await owner?.dispose();
  await shop?.stop();
});

async function shopPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ baseURL, acceptDownloads: true });
  await context.addInitScript(() => window.localStorage.setItem('fifty:newsletter-seen', '1'));
  return context.newPage();
}

test('Notify me → Add to calendar (.ics of the room opening) → the room-opening mail in the outbox, before the release', async ({ browser }, testInfo) => {
  test.setTimeout(150_000);
  // The room opens 30 s from now (DROP_RAFFLE_MINUTES=1 before the release): time to sign up before it does.
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
  let page = await shopPage(browser);
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
    // Nothing goes out before the room opens; then the shop's clock moves to its opening.
    expect(shop.mailsWith(`/product/${id}#waiting-room`)).toHaveLength(0);
    shop.moveClock(roomOpensAt + 1_000 - Date.now());
    await expect.poll(() => shop.mailsWith(`/product/${id}#waiting-room`).length, { timeout: 30_000, intervals: [500] }).toBe(1);
    expect(Date.now() + shop.clockShiftMs).toBeLessThan(releaseAt);
    const [eml] = shop.mailsWith(`/product/${id}#waiting-room`);
    expect(eml).toMatch(new RegExp(`^To: ${who.replace(/[.]/g, '\\.')}$`, 'm'));
    expect(eml).toContain('to be in the draw');
    expect(eml).toMatch(/Content-Type: text\/calendar/);
    expect(eml).toMatch(/filename=(")?drop\.ics/);
  });

  await test.step('the mail links straight to the room', async () => {
    await page.keyboard.press('Escape');
    // A new tab that keeps the shop's time (the clock is set before its first page), in which the room is open.
    const fromMail = await page.context().newPage();
    await page.close();
    page = fromMail;
    await page.clock.install({ time: Date.now() + shop.clockShiftMs });
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
