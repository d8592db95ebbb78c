import { test, expect, type Page } from '@playwright/test';
import {
  describeViolationWithTargets,
  E2E_ADMIN_PASSWORD,
  markNewsletterSeen,
  seriousViolations,
  toastText,
} from '../support/e2e';

// Sizes with their own stock (ADR 015), as people meet them in a real browser, found by role and
// accessible name: the owner makes a size run on a phone (preset, pieces per size, the inline sum check,
// save) and the shop sells those sizes. Each screen is checked with axe.

test.beforeEach(async ({ page }) => {
  await markNewsletterSeen(page);
});

const PHONE = { width: 375, height: 812 };

async function expectAxeClean(page: Page, what: string) {
  expect(await seriousViolations(page, { describe: describeViolationWithTargets }), what).toEqual([]);
}

test('the owner makes a size run on a phone', async ({ page }) => {
  test.setTimeout(120_000);
  const name = `Run Tee ${Date.now().toString(36)}`;
  await page.setViewportSize(PHONE);
  expect((await page.request.post('/api/admin/login', { data: { password: E2E_ADMIN_PASSWORD } })).ok()).toBe(true);
  let id = '';

  try {
    await test.step('the product form at 375 px: a tee of 50', async () => {
      await page.goto('/admin');
      await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
      await page.getByRole('button', { name: 'Add Product' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add New Product' });
      await expect(dialog).toBeVisible();
      await dialog.getByLabel('Name', { exact: true }).fill(name);
      await dialog.getByLabel('Description', { exact: true }).fill('A heavyweight tee cut in five sizes. Fifty made.');
      await dialog.getByLabel('Price', { exact: true }).fill('45');
      await dialog.getByLabel('Materials', { exact: true }).fill('100% organic cotton');
      await dialog.getByLabel('Sustainability Info', { exact: true }).fill('Made to order, nothing left over.');
      await dialog.getByRole('combobox', { name: 'Category' }).click();
      await page.getByRole('option', { name: 'T-Shirts' }).click();
      await dialog.getByLabel('Edition size', { exact: true }).fill('50');
      await dialog.getByRole('button', { name: 'Black', exact: true }).click();
    });

    const dialog = page.getByRole('dialog', { name: 'Add New Product' });
    const run = dialog.getByRole('group', { name: 'Sizes and pieces' });

    await test.step('split the one run into sizes: the tees preset, XS–XXL as 5/10/15/10/5/5, the sum checked inline', async () => {
      await expect(run).toHaveCount(0);
      await dialog.getByRole('button', { name: 'Split into sizes' }).click();
      await run.getByRole('combobox', { name: 'Start from' }).click();
      await page.getByRole('option', { name: 'Tees (XS–XXL)' }).click();
      for (const [size, pieces] of [
        ['XS', '5'],
        ['S', '10'],
        ['M', '15'],
        ['L', '10'],
        ['XL', '5'],
        ['XXL', '5'],
      ] as const) {
        await expect(run.getByRole('spinbutton', { name: `Pieces of ${size}` })).toHaveValue(pieces);
      }
      await expect(run.getByText('Sizes add up to 50 of 50 pieces.')).toBeVisible();
    });

    await test.step('no XXL this time: the sum falls short, then the XL takes the five', async () => {
      await run.getByRole('button', { name: 'Remove size XXL' }).click();
      await expect(run.getByRole('spinbutton', { name: 'Pieces of XXL' })).toHaveCount(0);
      await expect(run.getByText('Sizes add up to 45 of 50 pieces.')).toBeVisible();
      await run.getByRole('spinbutton', { name: 'Pieces of XL' }).fill('10');
      await expect(run.getByText('Sizes add up to 50 of 50 pieces.')).toBeVisible();
      // Nothing of the editor runs off a 375 px screen.
      const box = await run.boundingBox();
      expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
      await page.screenshot({ path: test.info().outputPath('size-run-editor-375.png') });
      await expectAxeClean(page, 'the product form with its size run at 375 px');
    });

    await test.step('save', async () => {
      await dialog.getByRole('button', { name: 'Create Product' }).click();
      await expect(toastText(page, 'Product created successfully')).toBeVisible();
      await expect(dialog).toBeHidden();
      const list = (await (await page.request.get('/api/admin/products')).json()) as Array<{
        id: string;
        name: string;
        stock: number;
        editionSize: number;
        sizes: string[];
        sizeRun: Array<{ size: string | null; pieces: number; left: number }>;
      }>;
      const made = list.find((p) => p.name === name);
      expect(made).toBeTruthy();
      id = made!.id;
      expect(made!.editionSize).toBe(50);
      expect(made!.stock).toBe(50);
      expect(made!.sizes).toEqual(['XS', 'S', 'M', 'L', 'XL']);
      expect(made!.sizeRun.map((s) => [s.size, s.pieces, s.left])).toEqual([
        ['XS', 5, 5],
        ['S', 10, 10],
        ['M', 15, 15],
        ['L', 10, 10],
        ['XL', 10, 10],
      ]);
      // The shop sells those sizes: the run's labels, XXL gone.
      const shown = (await (await page.request.get(`/api/products/${id}`)).json()) as { sizes: string[]; stock: number };
      expect(shown.sizes).toEqual(['XS', 'S', 'M', 'L', 'XL']);
      expect(shown.stock).toBe(50);
    });

  } finally {
    if (id) expect((await page.request.delete(`/api/admin/products/${id}`)).ok()).toBe(true);
  }
});
