// Sizes with their own stock as the storefront reads them (ADR 015): a product's `sizeStock` (catalogue,
// product page, live stock) turned into what a shopper can pick — each size with the pieces left of it.
import { sizeKey } from '../../common/domain/size-run';

/** One entry of a product's `sizeStock` (common/contracts/catalog.ts): size null is the unsplit one run. */
export interface SizeStockEntry {
  size: string | null;
  colour: string | null;
  left: number;
}

export interface SizeLeft {
  size: string;
  /** Pieces of this size a shopper can take now. */
  left: number;
}

/**
 * Is the edition cut in sizes, each with its own stock? Only when some entry names a size: absent,
 * empty or only the one run (size null) is one pool, read as before sizes had their own stock.
 */
export function isCutInSizes(sizeStock: readonly SizeStockEntry[] | null | undefined): boolean {
  return !!sizeStock && sizeStock.some((e) => e.size !== null);
}

/**
 * What is left of each size, in the product's order (`sizes`, then any size only the stock names).
 * A size counts its own entries (of the chosen colour when colours are stocked apart; all colours when
 * none is chosen) plus what the one run still has, since every listed size draws from that pool. A
 * listed size with no stock of its own and no one run left reads as sold out.
 */
export function sizesLeft(
  sizes: readonly string[],
  sizeStock: readonly SizeStockEntry[],
  colour: string | null = null,
): SizeLeft[] {
  const coloured = sizeStock.some((e) => e.colour !== null);
  const matchesColour = (e: SizeStockEntry) =>
    !coloured || colour === null || e.colour === null || e.colour.toLowerCase() === colour.toLowerCase();
  const pool = sizeStock
    .filter((e) => e.size === null && matchesColour(e))
    .reduce((sum, e) => sum + Math.max(0, e.left), 0);
  const order: string[] = [];
  const seen = new Set<string>();
  for (const label of [...sizes, ...sizeStock.flatMap((e) => (e.size === null ? [] : [e.size]))]) {
    const key = sizeKey(label);
    if (seen.has(key)) continue;
    seen.add(key);
    order.push(label);
  }
  return order.map((size) => {
    const key = sizeKey(size);
    const own = sizeStock
      .filter((e) => e.size !== null && sizeKey(e.size) === key && matchesColour(e))
      .reduce((sum, e) => sum + Math.max(0, e.left), 0);
    return { size, left: own + pool };
  });
}

/** Pieces left of one size (0 when unknown): for a choice that may have sold out meanwhile. */
export function leftOfSize(options: readonly SizeLeft[], size: string | null): number {
  if (size === null) return 0;
  const key = sizeKey(size);
  return options.find((o) => sizeKey(o.size) === key)?.left ?? 0;
}

export interface NamedLine {
  id: string;
  productId: string;
  selectedSize: string | null;
  product: { name: string };
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The cart lines a refusal names ('Sorry, M of Run Tee just sold out'): lines of a product the message
 * names, and of those with a size, only the ones whose size it names too (matched as a whole word, outside
 * the product's name). A message naming a product but no size of it names all its lines.
 */
export function linesNamedIn<L extends NamedLine>(message: string, lines: readonly L[]): L[] {
  const named: L[] = [];
  const byProduct = new Map<string, L[]>();
  for (const line of lines) byProduct.set(line.productId, [...(byProduct.get(line.productId) ?? []), line]);
  for (const group of byProduct.values()) {
    const name = group[0]!.product.name;
    if (!message.toLowerCase().includes(name.toLowerCase())) continue;
    const rest = message.replace(new RegExp(escapeRe(name), 'gi'), ' ');
    const sized = group.filter(
      (l) => l.selectedSize !== null && new RegExp(`(^|[^\\w"])${escapeRe(l.selectedSize)}(?![\\w"])`, 'i').test(rest),
    );
    named.push(...(sized.length > 0 ? sized : group));
  }
  return named;
}
