// Size runs (ADR 015): the owner splits an edition into sizes ("5 XS, 15 M, 10 XXL"), each size keeps its
// own stock, and the pieces of all sizes add up to the edition. Pure rules shared by the admin's size run
// editor, the storefront's size picker and inventory's per-size statements.

import { formatDuration, sellOutStory } from './sell-out';

/** Most sizes in one run, and the longest label: a run is a short list a shopper scans at a glance. */
export const MAX_SIZES = 12;
export const MAX_SIZE_LABEL = 20;
/** A size with this many pieces left or fewer says so ('L — 2 left'); above it, just the size. */
export const FEW_LEFT = 3;
/** What the shop calls the variant of an edition not split into sizes (size null: any listed size). */
export const ONE_RUN_LABEL = 'One run';

export type SizePresetId = 'tees' | 'hoodies' | 'decks' | 'one-size';

export interface SizePreset {
  id: SizePresetId;
  label: string;
  sizes: readonly string[];
}

/** The presets the editor offers (docs/product.md §3 size lists; tees and hoodies as the size chart). */
export const SIZE_PRESETS: readonly SizePreset[] = [
  { id: 'tees', label: 'Tees (XS–XXL)', sizes: ['XS', 'S', 'M', 'L', 'XL', 'XXL'] },
  { id: 'hoodies', label: 'Hoodies (S–XXL)', sizes: ['S', 'M', 'L', 'XL', 'XXL'] },
  { id: 'decks', label: 'Decks (7.5"–8.5")', sizes: ['7.5"', '8.0"', '8.25"', '8.5"'] },
  { id: 'one-size', label: 'One size', sizes: ['One Size'] },
];

export function findPreset(id: SizePresetId): SizePreset {
  return SIZE_PRESETS.find((p) => p.id === id)!;
}

/**
 * The preset a product starts from: by category slug (tshirts, hoodies, accessories in the demo
 * catalogue), and within accessories skate decks get deck widths while caps, bags and the rest are one
 * size (a jacket filed under accessories is no longer forced into deck sizes).
 */
export function presetForCategory(category: string, subcategory?: string | null): SizePreset {
  const cat = category.trim().toLowerCase();
  const sub = (subcategory ?? '').trim().toLowerCase();
  if (cat === 'tshirts' || cat === 't-shirts' || cat === 'tees') return findPreset('tees');
  if (cat === 'hoodies') return findPreset('hoodies');
  if (/\bdecks?\b/.test(sub) || cat === 'decks') return findPreset('decks');
  return findPreset('one-size');
}

/** A size label as stored: trimmed, inner runs of white space made one space. */
export function normaliseSizeLabel(label: string): string {
  return label.trim().replace(/\s+/g, ' ');
}

/** Two labels name the same size when they match case-insensitively after normalising ('xl' = 'XL'). */
export function sizeKey(label: string): string {
  return normaliseSizeLabel(label).toLowerCase();
}

export interface SizeRunEntry {
  size: string;
  /** Set only when colours are stocked apart (ADR 015, Colour): then every entry names one. */
  colour?: string | null;
  pieces: number;
}

export interface SizeRunIssue {
  /** The entry at fault, or null for the run as a whole. */
  index: number | null;
  field: 'size' | 'colour' | 'pieces' | 'run';
  message: string;
}

export interface SizeRunCheck {
  ok: boolean;
  issues: SizeRunIssue[];
  /** Pieces the entries add up to, and the pieces they must add up to. */
  sum: number;
  target: number;
  /** The inline sum check ('Sizes add up to 45 of 50 pieces.'). */
  sumMessage: string;
}

export const sizeRunMessages = {
  sizeRequired: 'Enter a size.',
  sizeTooLong: `A size is at most ${MAX_SIZE_LABEL} characters.`,
  duplicate: (label: string) => `${label} is listed twice.`,
  tooMany: `A run has at most ${MAX_SIZES} sizes.`,
  empty: 'Add at least one size.',
  pieces: 'Pieces must be a whole number, 0 or more.',
  colourMix: 'Give every size a colour, or none.',
  sum: (sum: number, target: number) => `Sizes add up to ${sum} of ${target} pieces.`,
} as const;

/**
 * Is this run valid for an edition of `editionSize`? Labels are trimmed, non-empty, at most 20
 * characters and unique case-insensitively (per colour when colours are stocked apart); at most 12 sizes;
 * pieces are whole numbers ≥ 0; and the pieces add up to the edition less `keptPieces` (pieces that stay
 * on the old one-run row because they were held or sold before the split).
 */
export function validateSizeRun(
  entries: readonly SizeRunEntry[],
  editionSize: number,
  keptPieces = 0,
): SizeRunCheck {
  const issues: SizeRunIssue[] = [];
  const target = Math.max(0, editionSize - keptPieces);
  let sum = 0;
  const seen = new Set<string>();
  const sizes = new Set<string>();
  const coloured = entries.filter((e) => normaliseColour(e.colour) !== null).length;
  entries.forEach((entry, index) => {
    const label = normaliseSizeLabel(entry.size);
    if (label === '') issues.push({ index, field: 'size', message: sizeRunMessages.sizeRequired });
    else if (label.length > MAX_SIZE_LABEL)
      issues.push({ index, field: 'size', message: sizeRunMessages.sizeTooLong });
    else {
      const key = `${sizeKey(label)}\u0000${(normaliseColour(entry.colour) ?? '').toLowerCase()}`;
      if (seen.has(key)) issues.push({ index, field: 'size', message: sizeRunMessages.duplicate(label) });
      seen.add(key);
      sizes.add(sizeKey(label));
    }
    if (!Number.isInteger(entry.pieces) || entry.pieces < 0)
      issues.push({ index, field: 'pieces', message: sizeRunMessages.pieces });
    else sum += entry.pieces;
  });
  if (entries.length === 0) issues.push({ index: null, field: 'run', message: sizeRunMessages.empty });
  if (sizes.size > MAX_SIZES) issues.push({ index: null, field: 'run', message: sizeRunMessages.tooMany });
  if (coloured > 0 && coloured < entries.length)
    issues.push({ index: null, field: 'colour', message: sizeRunMessages.colourMix });
  const sumMessage = sizeRunMessages.sum(sum, target);
  if (sum !== target) issues.push({ index: null, field: 'run', message: sumMessage });
  return { ok: issues.length === 0, issues, sum, target, sumMessage };
}

function normaliseColour(colour: string | null | undefined): string | null {
  const c = (colour ?? '').trim();
  return c === '' ? null : c;
}

/** What a shopper reads for a size: 'M — sold out', 'L — 2 left' when few remain (≤ FEW_LEFT), else 'M'. */
export function sizeOptionLabel(size: string, left: number): string {
  if (left <= 0) return `${size} — sold out`;
  if (left <= FEW_LEFT) return `${size} — ${left} left`;
  return size;
}

/**
 * 'All 50 sold in 3 min 12 s — M first, in 41 s': the edition's sell-out story (sell-out.ts) and the
 * size that went first, both timed from the drop's start. Without a first size, the plain story.
 */
export function sizedSellOutStory(
  editionSize: number,
  seconds: number | null,
  firstSize: { size: string; seconds: number | null } | null,
): string {
  const story = sellOutStory(editionSize, seconds);
  if (!firstSize) return story;
  return firstSize.seconds === null
    ? `${story} — ${firstSize.size} first`
    : `${story} — ${firstSize.size} first, in ${formatDuration(firstSize.seconds)}`;
}

/** `total` split into whole numbers in proportion to `weights` (largest remainder; ties to the earlier). */
export function apportion(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  if (weights.length === 0) return [];
  if (sum <= 0) return weights.map((_, i) => (i === 0 ? total : 0));
  const exact = weights.map((w) => (total * w) / sum);
  const out = exact.map(Math.floor);
  let rest = total - out.reduce((a, b) => a + b, 0);
  const order = exact
    .map((x, i) => [x - Math.floor(x), i] as const)
    .sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (const [, i] of order) {
    if (rest <= 0) break;
    out[i]! += 1;
    rest -= 1;
  }
  return out;
}

/** How many of a run a small label sells (demo data): the middle sizes most, the extremes least. */
const DEMO_WEIGHTS: Record<string, number> = {
  xs: 1,
  s: 2,
  m: 3,
  l: 2,
  xl: 1,
  xxl: 1,
  '7.5"': 1,
  '8.0"': 2,
  '8.25"': 2,
  '8.5"': 1,
};

/** A realistic run for the demo catalogue: 5/10/15/10/5/5 over XS–XXL for 50; one size takes all. */
export function demoSizeRun(sizes: readonly string[], editionSize: number): SizeRunEntry[] {
  const weights = sizes.map((s) => DEMO_WEIGHTS[sizeKey(s)] ?? 1);
  const pieces = apportion(editionSize, weights);
  return sizes.map((size, i) => ({ size, pieces: pieces[i]! }));
}

/**
 * What is left of each size of a demo run when `left` pieces of the edition remain: the sold pieces
 * went to the popular sizes first (weight squared), so a half-sold tee has its M nearly gone and its XS
 * mostly there. Returns pieces left per entry, in run order, adding up to `left`.
 */
export function demoSizeStock(run: readonly SizeRunEntry[], left: number): number[] {
  const total = run.reduce((a, e) => a + e.pieces, 0);
  let sold = Math.max(0, total - Math.max(0, left));
  const soldPer = run.map(() => 0);
  // Apportion, then cap by pieces and hand any excess to sizes with room, until all sold are placed.
  while (sold > 0) {
    const room = run.map((e, i) => e.pieces - soldPer[i]!);
    const weights = run.map((e, i) =>
      room[i]! > 0 ? (DEMO_WEIGHTS[sizeKey(e.size)] ?? 1) ** 2 * e.pieces : 0,
    );
    if (weights.every((w) => w === 0)) break;
    const share = apportion(sold, weights);
    share.forEach((n, i) => {
      const taken = Math.min(n, room[i]!);
      soldPer[i]! += taken;
      sold -= taken;
    });
  }
  return run.map((e, i) => e.pieces - soldPer[i]!);
}
