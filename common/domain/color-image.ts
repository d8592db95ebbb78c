/**
 * Which image shows a product in a chosen colour. An image is tagged with a colour by its file name:
 * `…/<anything>-<colour slug>.webp` (the demo catalogue names its renders `<product>-<colour>`, e.g.
 * `/uploads/seed/night-shift-tee-charcoal.webp`); the size variants `-400` / `-800` count as the same
 * image. Images without a tag (owner uploads are stored under random names) are the product's
 * own, so a colour with no tagged image shows the first image, as every thumbnail did before.
 */

/** "Forest Green" → "forest-green": the colour's part of a tagged file name. */
export function imageSlug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** The file name without its folder, query, extension and `-400` / `-800` width suffix. */
function stemOf(src: string): string {
  const file = src.split(/[?#]/)[0]!.split('/').pop() ?? '';
  return file.replace(/\.[a-z0-9]+$/i, '').replace(/-(400|800)$/, '');
}

export interface ColorImageProduct {
  images: readonly string[];
  /** The product's colours, in the order the owner lists them. */
  colors?: readonly { name: string }[];
}

const taggedWith = (src: string, slug: string): boolean => {
  const stem = stemOf(src);
  return stem === slug || stem.endsWith(`-${slug}`);
};

/**
 * Index in `images` of the chosen colour's image, or -1. Tagged by name first; a longer colour name
 * ending in this one ("Midnight Black" for "Black") keeps its own images. A product with no tagged
 * image whose images line up one for one with its colours (the product page's old rule for owner
 * uploads added in colour order) gives the colour's position.
 */
export function colorImageIndex(product: ColorImageProduct, color: string | null | undefined): number {
  const slug = color ? imageSlug(color) : '';
  if (!slug) return -1;
  const colors = product.colors ?? [];
  const slugs = colors.map((c) => imageSlug(c.name));
  const longer = slugs.filter((s) => s !== slug && s.endsWith(`-${slug}`));
  const tagged = product.images.findIndex((src) => taggedWith(src, slug) && !longer.some((l) => taggedWith(src, l)));
  if (tagged >= 0) return tagged;
  const anyTagged = product.images.some((src) => slugs.some((s) => s && taggedWith(src, s)));
  if (!anyTagged && product.images.length === colors.length) return slugs.indexOf(slug);
  return -1;
}

/** The chosen colour's image (colorImageIndex), else the first image; null when the product has none. */
export function imageForColor(product: ColorImageProduct, color: string | null | undefined): string | null {
  const i = colorImageIndex(product, color);
  return product.images[i >= 0 ? i : 0] ?? null;
}
