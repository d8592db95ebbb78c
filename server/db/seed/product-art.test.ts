import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { imageForColor } from '../../../common/domain/color-image';
import { afterAll, describe, expect, test } from 'vitest';
import {
  categorySizes,
  colorPalette,
  discountSeeds,
  MAX_SEED_IMAGES,
  seedCategories,
  seedImageJobs,
  seedProducts,
} from './catalog-data';
import {
  artKinds,
  buildCategorySvg,
  buildProductSvg,
  renderCategoryArt,
  renderProductArt,
} from './product-art';

const dirs: string[] = [];
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'fifty-art-'));
  dirs.push(dir);
  return dir;
}
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

async function expectWebp(file: string, width: number): Promise<void> {
  const bytes = await readFile(file);
  // RIFF....WEBP container header
  expect(bytes.subarray(0, 4).toString('ascii')).toBe('RIFF');
  expect(bytes.subarray(8, 12).toString('ascii')).toBe('WEBP');
  const meta = await sharp(bytes).metadata();
  expect(meta.format).toBe('webp');
  expect(meta.width).toBe(width);
}

describe('product art', () => {
  test('renders a tee as 1600/800/400 px WebP files and returns the public path', async () => {
    const outDir = await tempDir();
    const url = await renderProductArt({
      kind: 'tee',
      color: '#111111',
      graphic: 'FIFTY',
      outDir,
      key: 'test-tee',
    }, null);
    expect(url).toBe('/uploads/seed/test-tee.webp');
    await expectWebp(path.join(outDir, 'test-tee.webp'), 1600);
    await expectWebp(path.join(outDir, 'test-tee-800.webp'), 800);
    await expectWebp(path.join(outDir, 'test-tee-400.webp'), 400);
    const meta = await sharp(path.join(outDir, 'test-tee.webp')).metadata();
    expect(meta.height).toBe(1600);
  });

  test('a flat-lay shows the piece in its own colour on the shop paper; the close-up is another picture; both are deterministic', async () => {
    const drawn = new Map<string, Buffer>();
    const pixel = async (svg: string, x: number, y: number) => {
      if (!drawn.has(svg)) drawn.set(svg, await sharp(Buffer.from(svg)).removeAlpha().raw().toBuffer());
      const at = (y * 1600 + x) * 3;
      return [...drawn.get(svg)!.subarray(at, at + 3)];
    };
    const near = (a: number[], hex: string, tol: number) =>
      [1, 3, 5].every((i, k) => Math.abs(a[k]! - parseInt(hex.slice(i, i + 2), 16)) <= tol);
    const flat = buildProductSvg({ kind: 'hoodie', color: '#2E5A3C', graphic: 'FIFTY' });
    // Corner: the paper (#ebe9e2, the image well's colour); a sleeve: the garment's green, shaded.
    expect(near(await pixel(flat, 20, 1580), '#ebe9e2', 2)).toBe(true);
    expect(near(await pixel(flat, 420, 1000), '#2E5A3C', 40), String(await pixel(flat, 420, 1000))).toBe(true);
    const detail = buildProductSvg({ kind: 'hoodie', color: '#2E5A3C', graphic: 'FIFTY', view: 'detail' });
    expect(detail).not.toBe(flat);
    // The close-up fills the frame with cloth: its bottom corner is the hoodie, not paper.
    expect(near(await pixel(detail, 40, 1560), '#ebe9e2', 12)).toBe(false);
    expect(buildProductSvg({ kind: 'hoodie', color: '#2E5A3C', graphic: 'FIFTY', view: 'detail' }).replace(/type\d+/g, 'type')).toBe(
      detail.replace(/type\d+/g, 'type'),
    );
  });

  test('a drawing is cached by content: the next shop copies it, a changed drawing is drawn anew', async () => {
    const cacheDir = await tempDir();
    const first = await tempDir();
    await renderCategoryArt('hoodies', first, cacheDir);
    const entries = await readdir(cacheDir);
    expect(entries).toHaveLength(1);
    const drawn = await readFile(path.join(first, 'category-hoodies-400.webp'));
    expect(await readFile(path.join(cacheDir, entries[0], 'category-hoodies-400.webp'))).toEqual(drawn);
    // Mark the cached copy: a second render that returns the mark was served from the cache.
    await writeFile(path.join(cacheDir, entries[0], 'category-hoodies-400.webp'), 'cached');
    const second = await tempDir();
    await renderCategoryArt('hoodies', second, cacheDir);
    expect(await readFile(path.join(second, 'category-hoodies-400.webp'), 'utf8')).toBe('cached');
    // Another drawing (another key, so another SVG) misses the cache and is rasterised.
    await renderCategoryArt('tshirts', second, cacheDir);
    expect(await readdir(cacheDir)).toHaveLength(2);
    await expectWebp(path.join(second, 'category-tshirts-400.webp'), 400);
  });

  test('renders a 1600x1000 category banner in three widths', async () => {
    const outDir = await tempDir();
    const url = await renderCategoryArt('hoodies', outDir, null);
    expect(url).toBe('/uploads/seed/category-hoodies.webp');
    await expectWebp(path.join(outDir, 'category-hoodies.webp'), 1600);
    await expectWebp(path.join(outDir, 'category-hoodies-800.webp'), 800);
    await expectWebp(path.join(outDir, 'category-hoodies-400.webp'), 400);
    expect((await sharp(path.join(outDir, 'category-hoodies.webp')).metadata()).height).toBe(1000);
  });

  test('every art kind and category builds well-formed SVG', async () => {
    for (const kind of artKinds) {
      for (const view of ['flat', 'detail'] as const) {
        const svg = buildProductSvg({ kind, color: '#F26B38', graphic: 'NO.50', view });
        // librsvg rejects malformed XML, so a successful metadata read proves the markup parses
        const meta = await sharp(Buffer.from(svg)).metadata();
        expect(meta.width, `${kind} ${view}`).toBe(1600);
        expect(meta.height, `${kind} ${view}`).toBe(1600);
      }
    }
    for (const cat of seedCategories) {
      const meta = await sharp(Buffer.from(buildCategorySvg(cat.slug))).metadata();
      expect(meta.width).toBe(1600);
      expect(meta.height).toBe(1000);
    }
  });

  test('rejects keys that could escape the output directory', async () => {
    const outDir = await tempDir();
    await expect(
      renderProductArt({ kind: 'cap', color: '#000000', outDir, key: '../escape' }),
    ).rejects.toThrow();
    await expect(stat(path.join(outDir, '..', 'escape.webp'))).rejects.toThrow();
  });
});

describe('catalogue data', () => {
  const money = /^\d+\.\d{2}$/;
  const hex = /^#[0-9A-Fa-f]{6}$/;

  test('categories are exactly tshirts, hoodies and accessories', () => {
    expect(seedCategories.map((c) => c.slug)).toEqual(['tshirts', 'hoodies', 'accessories']);
    expect(seedCategories.map((c) => c.name)).toEqual(['T-Shirts', 'Hoodies', 'Accessories']);
    for (const c of seedCategories) {
      expect(c.description.length).toBeGreaterThan(30);
      expect(c.imageKey).toBe(`category-${c.slug}`);
    }
  });

  test('at least 16 products, at least 5 per category, unique names', () => {
    expect(seedProducts.length).toBeGreaterThanOrEqual(16);
    for (const slug of ['tshirts', 'hoodies', 'accessories'] as const) {
      expect(seedProducts.filter((p) => p.category === slug).length, slug).toBeGreaterThanOrEqual(5);
    }
    expect(new Set(seedProducts.map((p) => p.name)).size).toBe(seedProducts.length);
  });

  test('sizes come from the category list', () => {
    for (const p of seedProducts) {
      expect(p.sizes.length, p.name).toBeGreaterThan(0);
      for (const size of p.sizes) expect(categorySizes[p.category], p.name).toContain(size);
    }
    const tees = seedProducts.filter((p) => p.category === 'tshirts');
    const hoodies = seedProducts.filter((p) => p.category === 'hoodies');
    for (const p of tees) expect(p.sizes).toEqual(['XS', 'S', 'M', 'L', 'XL', 'XXL']);
    for (const p of hoodies) expect(p.sizes).toEqual(['S', 'M', 'L', 'XL', 'XXL']);
    for (const p of seedProducts.filter((x) => x.category === 'accessories')) {
      const deck = p.art.kind === 'deck';
      expect(p.sizes).toEqual(deck ? ['7.5"', '8.0"', '8.25"', '8.5"'] : ['One Size']);
    }
  });

  test('prices, sales, stock and flags are consistent', () => {
    for (const p of seedProducts) {
      expect(p.price, p.name).toMatch(money);
      const price = Number(p.price);
      expect(price).toBeGreaterThanOrEqual(28);
      expect(price).toBeLessThanOrEqual(160);
      if (p.salePrice !== null) {
        expect(p.salePrice).toMatch(money);
        expect(Number(p.salePrice), p.name).toBeLessThan(price);
      }
      expect(p.isOnSale, p.name).toBe(p.salePrice !== null);
      expect(Number.isInteger(p.stock)).toBe(true);
      expect(p.stock).toBeGreaterThanOrEqual(0);
      expect(p.stock).toBeLessThanOrEqual(50);
      expect(p.inStock, p.name).toBe(p.stock > 0);
    }
    expect(seedProducts.filter((p) => p.isOnSale).length).toBeGreaterThanOrEqual(2);
    expect(seedProducts.filter((p) => p.isNew).length).toBeGreaterThanOrEqual(2);
    const soldOut = seedProducts.filter((p) => p.stock === 0 || !p.inStock);
    expect(soldOut).toHaveLength(1);
    expect(soldOut[0].stock).toBe(0);
    expect(soldOut[0].inStock).toBe(false);
    expect(seedProducts.some((p) => p.stock > 0 && p.stock <= 7)).toBe(true);
  });

  test('copy is filled in and the first sentence stands alone', () => {
    for (const p of seedProducts) {
      // "NO.50" and 7.5" must not count as sentence ends, so split only before a capital
      const sentences = p.description.split(/(?<=[.!?])\s+(?=[A-Z])/);
      expect(sentences[0], p.name).toMatch(/^[A-Z].{10,}[.!?]$/);
      expect(sentences.length, p.name).toBeGreaterThanOrEqual(2);
      expect(sentences.length, p.name).toBeLessThanOrEqual(3);
      expect(p.materials.length).toBeGreaterThan(10);
      expect(p.sustainabilityInfo.length).toBeGreaterThan(20);
    }
  });

  test('colours use the palette and one product offers more than three', () => {
    const palette = new Map(colorPalette.map((c) => [c.name, c.value]));
    expect([...palette.keys()]).toEqual([
      'Black',
      'White',
      'Grey',
      'Charcoal',
      'Navy',
      'Forest Green',
      'Ocean Blue',
      'Sunset Orange',
      'Steel Grey',
      'Midnight Black',
      'Natural Bamboo',
      'Black Stain',
    ]);
    for (const c of colorPalette) expect(c.value).toMatch(hex);
    for (const p of seedProducts) {
      expect(p.colors.length, p.name).toBeGreaterThan(0);
      for (const c of p.colors) expect(palette.get(c.name), `${p.name} ${c.name}`).toBe(c.value);
    }
    expect(seedProducts.some((p) => p.colors.length > 3)).toBe(true);
    expect(seedProducts.some((p) => p.colors.length === 5)).toBe(true);
  });

  test('a flat-lay per colour (at most four) and one close-up, second, with unique keys', () => {
    const keys = new Set<string>();
    for (const p of seedProducts) {
      const jobs = seedImageJobs(p);
      const flats = jobs.filter((j) => j.view === 'flat');
      expect(flats.map((j) => j.color.name), p.name).toEqual(p.colors.slice(0, MAX_SEED_IMAGES).map((c) => c.name));
      // The card's second image (on hover) is the close-up.
      expect(jobs.map((j) => j.view), p.name).toEqual(['flat', 'detail', ...flats.slice(1).map(() => 'flat')]);
      for (const j of jobs) {
        expect(j.key).toMatch(/^[a-z0-9][a-z0-9-]*$/);
        expect(j.path).toBe(`/uploads/seed/${j.key}.webp`);
        expect(keys.has(j.key), j.key).toBe(false);
        keys.add(j.key);
      }
      expect(artKinds).toContain(p.art.kind);
    }
  });

  test("every colour with a flat-lay is the image a cart line in that colour shows", () => {
    for (const p of seedProducts) {
      const product = { images: seedImageJobs(p).map((j) => j.path), colors: p.colors };
      for (const j of seedImageJobs(p).filter((x) => x.view === 'flat')) {
        expect(imageForColor(product, j.color.name), `${p.name} ${j.color.name}`).toBe(j.path);
      }
      // A colour past the fourth has no flat-lay of its own: the first one stands in.
      for (const c of p.colors.slice(MAX_SEED_IMAGES)) expect(imageForColor(product, c.name)).toBe(product.images[0]);
    }
  });

  test('FALL15 is a 15% unlimited code', () => {
    expect(discountSeeds).toEqual([{ code: 'FALL15', discountPercent: 15, maxUsage: null }]);
  });
});
