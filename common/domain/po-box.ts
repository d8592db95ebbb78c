import { foldText } from './identity';
import { isLimitedEdition, PO_BOX_MESSAGE } from './fulfilment-promises';

// No P.O. Box for limited editions (docs/product.md §9, "Fulfilment promises"). Apart from
// fulfilment-promises.ts because it folds text with identity.ts (look-alike tables): the server asks it, and
// the storefront shows the server's refusal without loading those tables.

// Dots, spaces and hyphens may sit between the letters (P.O. Box, P O Box, P-O-Box, POBox). Each pattern
// ends on a word boundary or needs a number, so "Boxwood Lane", "Box Elder St" or "Post Office Rd" are
// street addresses.
const SEP = '[\\s.\\-]*';
const PO_BOX_PATTERNS: readonly RegExp[] = [
  // PO Box, P.O. Box, P O Box, POBox, P.O.Box, PO Bx
  new RegExp(`\\bp${SEP}o${SEP}(?:box|bx)\\b`, 'i'),
  // Post Office Box, Post Office Bx
  new RegExp(`\\bpost${SEP}office${SEP}(?:box|bx)\\b`, 'i'),
  // Postal Box 12, Post Box 12 (with a number: "Post Box Lane" is a street)
  new RegExp(`\\bpost(?:al)?${SEP}(?:box|bx)${SEP}#?${SEP}\\d`, 'i'),
  // POB 12, P.O.B. 12
  new RegExp(`\\bp${SEP}o${SEP}b\\b${SEP}#?${SEP}\\d`, 'i'),
  // "Box 12" as the address line itself, or a part of it after a comma
  new RegExp(`(?:^|,)\\s*(?:box|bx)${SEP}#?${SEP}\\d`, 'i'),
];

/**
 * True when an address line names a post office box. Read as a person reads it (identity.ts foldText:
 * full-width letters, invisible characters, accents and look-alike letters folded), so "РО Box" in Cyrillic
 * or a zero-width space between the letters is still a P.O. box.
 */
export function isPoBoxAddress(line: string): boolean {
  const folded = foldText(line);
  return PO_BOX_PATTERNS.some((p) => p.test(folded));
}

/** The refusal for this address and these pieces, or null when it may ship there. */
export function poBoxRefusal(
  address: string,
  products: ReadonlyArray<{ releaseAt: string | Date | null; soldByDraw: boolean }>,
): string | null {
  return products.some(isLimitedEdition) && isPoBoxAddress(address) ? PO_BOX_MESSAGE : null;
}
